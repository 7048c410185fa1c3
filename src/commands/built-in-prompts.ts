/**
 * Prompts mca ships as commands, as Claude Code ships `/review` and `/security-review` (issue 40): each is a custom
 * command without a file, so it expands like one (its `!` lines run under its own allowed tools, `$ARGUMENTS` is the
 * rest of the line) and a user's or project's command of the same name replaces it.
 */
/** What custom-commands.ts needs to make a command of it. */
export interface BuiltInPrompt {
  name: string;
  description: string;
  argumentHint: string;
  allowedTools: string[];
  body: string;
}

const GIT_READS = ['Bash(git status:*)', 'Bash(git diff:*)', 'Bash(git log:*)'];

const CHANGES = [
  '## Status',
  '!`git status --short`',
  '',
  '## Diff of the working tree against HEAD',
  '!`git diff HEAD`',
].join('\n');

function builtIn(name: string, description: string, body: string): BuiltInPrompt {
  return { name, description, argumentHint: '[what to focus on]', allowedTools: GIT_READS, body };
}

export const BUILT_IN_PROMPTS: readonly BuiltInPrompt[] = [
  builtIn(
    'review',
    'Review the current changes (git diff against HEAD)',
    [
      'Review the uncommitted changes of this repository, shown below.',
      '',
      CHANGES,
      '',
      'Review them as a careful senior engineer: correctness bugs first, then missing or weak tests, error handling,',
      'and readability. For each finding give the file and line, what is wrong and a concrete fix; say plainly when',
      'the change looks right. Read the surrounding code where the diff alone is not enough. Do not edit any file.',
      '',
      '$ARGUMENTS',
    ].join('\n'),
  ),
  builtIn(
    'security-review',
    'Review the current changes for security problems',
    [
      'Review the uncommitted changes of this repository, shown below, for security problems only.',
      '',
      CHANGES,
      '',
      'Look for injection (shell, SQL, path), missing authorization or authentication checks, secrets in code or',
      'logs, unsafe deserialization, path traversal, SSRF, unsafe defaults and dependency risks. For each finding',
      'give the file and line, how it could be exploited, its severity and a concrete fix; do not report style.',
      'Say plainly when you find nothing. Do not edit any file.',
      '',
      '$ARGUMENTS',
    ].join('\n'),
  ),
];
