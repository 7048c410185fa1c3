/**
 * What the REPL writes to a terminal while it streams (issue 42): a long answer to stream, and the full-screen
 * clears to look for in the recorded bytes (test/e2e/repl-stream-bytes.test.ts, bench/repl-stream-bench.ts).
 */

/**
 * K kB of Markdown that ends with the line END-OF-ANSWER: paragraphs of five 70-character sentences, or (`code`) one
 * fenced code block of 40-character lines.
 */
export function longAnswer(kb: number, shape: 'paragraphs' | 'code' = 'paragraphs'): string {
  if (shape === 'code') {
    const lines = Array.from(
      { length: Math.ceil((kb * 1024) / 40) },
      (_, index) => `const value${index} = ${index}; // line`,
    );
    return `One code block:\n\n\`\`\`js\n${lines.join('\n')}\n\`\`\`\n\nEND-OF-ANSWER`;
  }
  const paragraphs: string[] = [];
  let size = 0;
  for (let index = 1; size < kb * 1024; index += 1) {
    const sentence = `Paragraph ${index} says something about the code, with \`name${index}\` in it.`;
    const paragraph = Array.from({ length: 5 }, () => sentence).join(' ');
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return `${paragraphs.join('\n\n')}\n\nEND-OF-ANSWER`;
}

/** Full-screen clears in terminal output: erase display, erase scrollback, full reset. */
export const CLEAR_SEQUENCES = ['\x1b[2J', '\x1b[3J', '\x1bc'] as const;

export function countClears(output: string): number {
  return CLEAR_SEQUENCES.reduce((sum, sequence) => sum + output.split(sequence).length - 1, 0);
}

/**
 * The bound this tree keeps: terminal bytes per kB of streamed answer text. Measured (bench/repl-stream-bench.ts,
 * 200 kB, 100×40 pane): about 1,230 for paragraphs, 2,130 for one code block (its syntax colours); the bound leaves
 * room above both, and catches a REPL that redraws what it already wrote (that grows with the answer, many times over).
 */
export const MAX_BYTES_PER_KB = 3_072;
