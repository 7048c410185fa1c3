/**
 * What a "yes" to the trust question turns on, one item per line, grouped. `danger` items are always shown in
 * full (they run code, send secrets, widen reach or switch a guard off); only benign ones (narrow allow rules,
 * subagents, skills) may be counted behind a "… and N more", so benign entries can never push a dangerous one out
 * of sight. Each integration builds its own items; runtime/trust-policy.ts gathers them in one list.
 */

/** Display order of the groups; a new kind of widening (the sandbox, …) gets its own group here. */
export const TRUST_GROUPS = [
  ['mcp', 'MCP servers'],
  ['hooks', 'Hooks'],
  ['widening', 'Reach and guards'],
  ['env', 'Environment'],
  ['rules', 'Allow rules'],
  ['commands', 'Commands'],
  ['extensions', 'Subagents and skills'],
] as const;

export type TrustGroup = (typeof TRUST_GROUPS)[number][0];

export interface TrustItem {
  readonly group: TrustGroup;
  /** One line, without indentation; text the project chose is neutralised by whoever renders it. */
  readonly text: string;
  readonly danger: boolean;
  /** More lines under `text` (a server's env and headers): shown whenever the item is. */
  readonly details?: readonly string[];
}

/** Variables whose value is not a secret: `${HOME}/x` in a server's args is a path, not a leak. */
const HARMLESS_VARIABLES: ReadonlySet<string> = new Set([
  'HOME',
  'USER',
  'LOGNAME',
  'PWD',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'SHELL',
  'TERM',
  'CLAUDE_PROJECT_DIR',
]);

/** The `${NAME}` references of a value as written that may carry a secret (anything not clearly harmless). */
export function secretReferences(written: string): string[] {
  const names = [...written.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)].map((match) => match[1] ?? '');
  return [...new Set(names.filter((name) => name !== '' && !HARMLESS_VARIABLES.has(name)))];
}

/**
 * Variables that make a program load code or find executables elsewhere: set by a project, each runs code the
 * project chose (a file of the repository, a library it ships) inside the process that gets them.
 */
const CODE_LOADING =
  /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]+|PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5LIB|PERL5OPT|PERLLIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|ZDOTDIR|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|GIT_[A-Z_]+|NPM_CONFIG_[A-Z_]+|ELECTRON_RUN_AS_NODE)$/i;

/** Variables that send mca's own traffic (and its key) somewhere else, or change its credentials. */
const ENDPOINT =
  /^(ANTHROPIC_|OPENAI_|CLAUDE_CODE_|MCA_|HTTPS?_PROXY$|ALL_PROXY$|NO_PROXY$|NODE_TLS_REJECT_UNAUTHORIZED$|NODE_EXTRA_CA_CERTS$|SSL_CERT_)/i;

/** Whether a value names a file of the repository: a relative path, or an absolute one under the project. */
function pointsInto(value: string, projectRoot: string): boolean {
  return value
    .split(/[\s=:,;]+/)
    .some((part) => /^\.{1,2}\//.test(part) || part === '.' || (part.startsWith(projectRoot) && projectRoot !== ''));
}

/**
 * One variable a project would set (a server's `env`, settings `env`): its name and what its value does. Danger
 * unless it is a plain value: loads code, points into the repository, expands a secret, or redirects mca.
 */
export function describeVariable(
  name: string,
  written: string,
  projectRoot: string,
): { text: string; danger: boolean } {
  const notes: string[] = [];
  if (CODE_LOADING.test(name)) notes.push('makes programs load code or find executables');
  if (ENDPOINT.test(name)) notes.push("changes mca's endpoint, key or TLS");
  if (pointsInto(written, projectRoot)) notes.push('points into the repository');
  const secrets = secretReferences(written);
  if (secrets.length > 0)
    notes.push(`expands ${secrets.map((secret) => `\${${secret}}`).join(', ')} from your environment`);
  const shown = written.length > 80 ? `${written.slice(0, 77)}...` : written;
  const value = secrets.length > 0 || notes.length > 0 ? `=${shown}` : '';
  return { text: `${name}${value}${notes.length > 0 ? `: ${notes.join('; ')}` : ''}`, danger: notes.length > 0 };
}
