/**
 * What the box blocked in a command that failed, in words the model can act on (ask for the path or host, or ask
 * to run the command outside the box): hosts the proxy refused while it ran, paths it could not write (the
 * "Read-only file system" errors), hidden credential places it named, and unix sockets it could not open.
 */
import type { Refusal } from './network-proxy.js';

export interface BlockedFacts {
  command: string;
  stdout: string;
  stderr: string;
  refusals: readonly Refusal[];
  /** Hidden places (denyRead and credentials). */
  hidden: readonly string[];
  home: string;
  unixSocketsOpen: boolean;
  /** The command failed (paths are explained only then; refused hosts always). */
  failed: boolean;
}

const WHY: Record<Refusal['why'], string> = {
  denied: 'in sandbox.network.deniedDomains',
  'not-listed': 'not in sandbox.network.allowedDomains',
  'private-address': 'it resolves to a private address the list does not name',
  unresolved: 'the name does not resolve',
};

const MAX_ITEMS = 5;

function readOnlyPaths(text: string): string[] {
  return pathsBefore(text, 'Read-only file system');
}

/** The paths error messages name before `error` (`cmd: 'path': error`, `cmd: path: error`). */
function pathsBefore(text: string, error: string): string[] {
  const paths = new Set<string>();
  const pattern = new RegExp(`(?:'([^'\\n]+)'|"([^"\\n]+)"|([^\\s:'"]+)): ${error}`, 'g');
  for (const match of text.matchAll(pattern)) {
    const path = match[1] ?? match[2] ?? match[3];
    if (path !== undefined) paths.add(path);
  }
  return [...paths];
}

/** One line per thing the box blocked, or none when nothing points at the box. */
export function blockedReasons(facts: BlockedFacts): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const refusal of facts.refusals) {
    const key = `${refusal.host}:${refusal.port}`;
    if (seen.has(key) || seen.size >= MAX_ITEMS) continue;
    seen.add(key);
    lines.push(`network access to ${key} (${WHY[refusal.why]})`);
  }
  if (!facts.failed) return lines;
  const output = `${facts.stdout}\n${facts.stderr}`;
  for (const path of readOnlyPaths(output).slice(0, MAX_ITEMS)) {
    lines.push(
      `writing ${path} (the box writes only in the project, added directories and $TMPDIR; control files stay read-only)`,
    );
  }
  const said = `${facts.command}\n${output}`;
  for (const place of facts.hidden) {
    const tilde = place.startsWith(`${facts.home}/`) ? `~/${place.slice(facts.home.length + 1)}` : undefined;
    if (said.includes(place) || (tilde !== undefined && said.includes(tilde))) {
      lines.push(`reading ${tilde ?? place} (hidden in the box: a credential place or sandbox.filesystem.denyRead)`);
    }
    if (lines.length >= MAX_ITEMS * 3) break;
  }
  if (!facts.unixSocketsOpen && /Operation not permitted/i.test(output) && /sock|unix|docker|agent/i.test(said)) {
    lines.push('unix sockets (closed in the box unless sandbox.network.allowUnixSockets lists them)');
  }
  return lines;
}

/** The note appended to a failed boxed command's result. */
export function blockedNote(lines: readonly string[]): string | undefined {
  if (lines.length === 0) return undefined;
  return [
    '[sandbox] The command ran in the sandbox, which blocked:',
    ...lines.map((line) => `- ${line}`),
    'Ask the user to allow it in the sandbox settings, or retry with dangerouslyDisableSandbox: true (always asked).',
  ].join('\n');
}
