/**
 * The REPL's one question per project, asked on the terminal before the REPL starts: the project's settings
 * want to allow things (allow rules, its commands' shell lines) or run its hook commands; does the user trust it? The answer is stored
 * under MCA_HOME by the caller, so it is asked once. Anything but "y"/"yes" is no.
 */
import { createInterface } from 'node:readline/promises';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

/** Narrow rules shown before the rest are counted; the broad ones (below) are always all shown. */
const SHOWN_RULES = 10;
/** A screenful: a project listing more broad rules than this is suspicious on its face, and says how many. */
const MAX_BROAD_SHOWN = 40;

/**
 * How much a line widens, most first: a whole-tool rule (`Bash`, `Bash(*)`) allows everything that tool does, a
 * project command runs shell lines, a wildcard rule allows a family of calls; an exact rule one call.
 */
function breadth(line: string): number {
  const rule = /^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))? \(/s.exec(line);
  if (rule === null) return 1; // a project command that runs shell lines
  const specifier = rule[2]?.trim() ?? '';
  if (specifier === '' || specifier === '*') return 0;
  return specifier.includes('*') ? 2 : 3;
}

/**
 * The lines to show, broadest first and each once: every whole-tool rule, shell command and wildcard rule is
 * listed first (a hostile project cannot push `Bash` past the cut; past MAX_BROAD_SHOWN they are counted), the
 * exact rules up to SHOWN_RULES in all.
 */
export function trustQuestionLines(widening: readonly string[]): string[] {
  const ranked = [...new Set(widening)]
    .map((line, index) => ({ line, index, rank: breadth(line) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  const allBroad = ranked.filter((entry) => entry.rank < 3);
  const broad = allBroad.slice(0, MAX_BROAD_SHOWN);
  const exact = ranked.filter((entry) => entry.rank === 3);
  const room = Math.max(0, SHOWN_RULES - broad.length);
  const shown = [...broad, ...exact.slice(0, room)].map((entry) => `  ${neutralizeControlSequences(entry.line)}`);
  if (allBroad.length > broad.length) shown.push(`  … and ${allBroad.length - broad.length} more broad rule(s)`);
  if (exact.length > room) shown.push(`  … and ${exact.length - room} more exact rule(s)`);
  return shown;
}

export async function askTrustOnce(projectRoot: string, widening: readonly string[]): Promise<boolean> {
  const shown = trustQuestionLines(widening);
  process.stderr.write(
    [
      `This project (${neutralizeControlSequences(projectRoot)}) asks mca to allow or run without asking:`,
      ...shown,
      'Trust it? Until you do, only its deny and ask rules apply and its hooks do not run. (`mca trust --revoke` undoes this.)',
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
