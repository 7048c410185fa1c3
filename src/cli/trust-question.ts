/**
 * The REPL's one question per project, asked on the terminal before the REPL starts: the project's settings
 * want to allow things (allow rules, later its own commands); does the user trust it? The answer is stored
 * under MCA_HOME by the caller, so it is asked once. Anything but "y"/"yes" is no.
 */
import { createInterface } from 'node:readline/promises';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

const SHOWN_RULES = 10;

export async function askTrustOnce(projectRoot: string, widening: readonly string[]): Promise<boolean> {
  const shown = widening.slice(0, SHOWN_RULES).map((line) => `  ${neutralizeControlSequences(line)}`);
  if (widening.length > SHOWN_RULES) shown.push(`  … and ${widening.length - SHOWN_RULES} more`);
  process.stderr.write(
    [
      `This project (${neutralizeControlSequences(projectRoot)}) asks mca to allow without asking, or to run:`,
      ...shown,
      'Trust it? Until you do, only its deny and ask rules apply and its MCP servers stay off. (`mca trust --revoke` undoes this.)',
      '',
    ].join('\n'),
  );
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await reader.question('Trust this project? [y/N] ');
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    reader.close();
  }
}
