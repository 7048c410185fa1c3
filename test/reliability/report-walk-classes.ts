/**
 * The threat-model table of issue 23's walking-tool classes (1, 6, 8, 9): what guards each class, its limits, and
 * the attempts and held counts summed from the 'walks' and 'walks-long' suites (rows are grouped by class).
 */
import type { SuiteResults } from './results.js';

const CLASSES: ReadonlyArray<{ group: string; attack: string; guard: string; limits: string }> = [
  {
    group: 'walk escapes the root',
    attack:
      "Grep's `include` or Glob's `pattern` naming `..`, an absolute path, `.{.,}` or `\\.\\.`; a symlinked directory or file the repository ships (`vendor -> ..`, `key.txt -> ../id_rsa`), on the ripgrep path and the JS fallback; LS of a linked directory",
    guard:
      "Patterns that are or can expand to `..`, and absolute ones, are refused (INVALID_PARAM, src/tools/walking/walk-pattern.ts); fast-glob's readdir refuses any directory whose real path leaves the root, and every file a walk yields or ripgrep reports is kept only if its real path is inside the root (src/tools/walking/walk-files.ts, grep-ripgrep.ts); symlinks are never followed while walking",
    limits:
      'A segment containing `..` anywhere (`a..b`) is refused too. There are no added directories in mca, so the root is the only place a walk may go.',
  },
  {
    group: 'deny rules bypassed by other readers',
    attack:
      "`Read(./.env)` deny with Grep `include` `.env`, `.*`, `**/.env*` (ripgrep's `--glob` overrides .gitignore), a symlink to `.env`, Glob and LS listings",
    guard:
      "Every file a walk opens or lists is checked against the tool's deny and ask path rules, by path and real path (PermissionPolicy.pathScreen, src/permissions/path-screen.ts): Grep drops the file (the JS engine never opens it; ripgrep's matches from it are dropped), Glob and LS leave the name out; each says how many a rule left out. With `include`, ripgrep's results are filtered by .gitignore like the JS engine's",
    limits:
      'ripgrep still reads a denied file (its matches never reach the model). An ask rule withholds like a deny rule in a walk (nobody can be asked per file); a Read of the file itself still asks.',
  },
  {
    group: 'hangs that ignore Ctrl-C',
    attack:
      'JS Grep with `(a+)+$`, `^(a|aa)*$`; a 14-star Glob on a 150-character name; Ctrl-C or SIGTERM meanwhile; Grep on a FIFO',
    guard:
      'The JS Grep and Glob walk and match in a worker thread (src/tools/walking/walk-runner.ts; a Glob with a provably cheap pattern, at most two unbounded wildcards and no extglob, class, escape or nested brace, and no path rules, walks asynchronously on the main thread under the same deadline and abort, src/tools/walking/walk-inline.ts): the main thread keeps handling signals, and the worker is terminated on Ctrl-C/SIGTERM or at the tool deadline (60 s, MCA_TOOL_DEADLINE_MS), the model getting TIMEOUT; ripgrep is killed at the same deadline; a FIFO, socket or device as the path is refused, one met while walking is skipped (opened O_NONBLOCK, checked by descriptor)',
    limits:
      "LS's gitignore-style filters run on the main thread (the `ignore` engine stayed linear on every many-star pattern tried). The deadline covers Grep and Glob; LS (one directory, no pattern engine of the model's) and Read have none of their own. A stopped worker's partial results are dropped, not shown.",
  },
  {
    group: 'crashes on big honest input',
    attack:
      "A 13 MB one-line minified file searched with `a` or `[a-z]`: ripgrep's --json event is 741 MB, past V8's longest string",
    guard:
      "ripgrep's output is split into events in bounded memory; an event over 1 MB keeps its head (file, start of the line) and its line number is found as it streams by (src/tools/grep/rg-json-lines.ts); the JS engine holds at most 1 MB of a line; Bash's capture keeps 30,000 characters (capped-output.ts); rg's stderr keeps 4 KB",
    limits:
      'A match in an overlong line shows only the line’s first 2,048 characters (the model sees 300 of any line).',
  },
];

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function walkClassTable(results: readonly SuiteResults[]): string[] {
  const rows = results.filter((result) => result.suite.startsWith('walks')).flatMap((result) => result.rows);
  const lines = [
    '',
    'Walking tools (Grep, Glob, LS), issue 23. Attempts and held are summed from the `walks` suites below.',
    '',
    '| Class | The attack | What guards it | Attempts | Held | Limits |',
    '| --- | --- | --- | ---: | ---: | --- |',
  ];
  for (const entry of CLASSES) {
    const mine = rows.filter((row) => row.group === entry.group);
    const attempts = mine.reduce((sum, row) => sum + row.runs, 0);
    const held = mine.reduce((sum, row) => sum + row.intact, 0);
    lines.push(
      `| ${cell(entry.group)} | ${cell(entry.attack)} | ${cell(entry.guard)} | ${attempts} | ${held} | ${cell(entry.limits)} |`,
    );
  }
  return lines;
}
