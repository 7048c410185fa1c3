/**
 * The REPL's trust question, asked on the terminal before the REPL starts, as Claude Code asks it: what the project
 * brings (grouped; every dangerous item on its own line, benign ones counted; `d` shows the full list), then
 * "1. Yes, proceed" (highlighted, Enter) and "2. No, exit". Yes is recorded by the caller; No exits mca without
 * recording anything, so the question comes back next time. Without a terminal it reads one line (y/N).
 */
import { createInterface } from 'node:readline/promises';
import { TRUST_GROUPS, type TrustItem } from '../../permissions/trust-items.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { EXIT_AGENT_FAILURE } from '../exit-codes.js';
import { terminalMenu } from '../terminal-menu.js';

/** Benign items of a group shown in the short view before the rest are counted. */
const BENIGN_SHOWN = 3;

export function wrap(text: string, indent: string, width: number): string[] {
  const room = Math.max(20, width - indent.length - 1);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = '';
    }
    // A word longer than a line (a path, a URL) is cut into pieces rather than run past the edge.
    let rest = word;
    while (rest.length > room) {
      if (line !== '') lines.push(line);
      lines.push(rest.slice(0, room));
      rest = rest.slice(room);
      line = '';
    }
    line = line === '' ? rest : `${line} ${rest}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((piece, index) => `${index === 0 ? indent : `${indent}  `}${piece}`);
}

/**
 * The list, grouped in TRUST_GROUPS order. Dangerous items (and their details) are always listed; in the short
 * view a group's benign items past BENIGN_SHOWN are one count line. Never a cut that hides a dangerous item.
 */
export function trustQuestionLines(items: readonly TrustItem[], full: boolean, width = 100): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const unique = items.filter(
    (item) => !seen.has(`${item.group}\0${item.text}`) && seen.add(`${item.group}\0${item.text}`),
  );
  for (const [group, label] of TRUST_GROUPS) {
    const members = unique.filter((item) => item.group === group);
    if (members.length === 0) continue;
    lines.push(`${label} (${members.length})`);
    const benign = members.filter((item) => !item.danger);
    const shownBenign = full ? benign : benign.slice(0, BENIGN_SHOWN);
    for (const item of members) {
      if (!item.danger && !shownBenign.includes(item)) continue;
      lines.push(...wrap(neutralizeControlSequences(item.text), '  ', width));
      for (const detail of item.details ?? []) lines.push(...wrap(neutralizeControlSequences(detail), '      ', width));
    }
    if (shownBenign.length < benign.length) {
      lines.push(`  … and ${benign.length - shownBenign.length} more like these (press d for the full list)`);
    }
  }
  return lines;
}

/** The menu on a terminal; resolves true for yes ("1. Yes, proceed", Enter at start), false for no or Esc. */
async function askOnTerminal(projectRoot: string, items: readonly TrustItem[]): Promise<boolean> {
  const picked = await terminalMenu({
    body: (full, width) => [
      'Do you trust the files in this folder?',
      '',
      ...wrap(neutralizeControlSequences(projectRoot), '', width),
      '',
      'Saying yes turns on what this project brings:',
      ...trustQuestionLines(items, full, width),
    ],
    options: ['Yes, proceed', 'No, exit'],
    toggles: true,
  });
  return picked === 0;
}

async function askOnLine(projectRoot: string, items: readonly TrustItem[]): Promise<boolean> {
  process.stderr.write(
    [`This project (${neutralizeControlSequences(projectRoot)}) brings:`, ...trustQuestionLines(items, true), ''].join(
      '\n',
    ),
  );
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^\s*(y(es)?|1)\s*$/i.test(await reader.question('Trust this project? [y/N] '));
  } finally {
    reader.close();
  }
}

export async function askTrustOnce(projectRoot: string, items: readonly TrustItem[]): Promise<boolean> {
  const trusted = process.stdin.isTTY ? await askOnTerminal(projectRoot, items) : await askOnLine(projectRoot, items);
  if (trusted) return true;
  process.stderr.write(
    'Not trusted; mca exits. Nothing was recorded: the question comes back next time (`mca trust` trusts it for scripts).\n',
  );
  process.exit(EXIT_AGENT_FAILURE);
}
