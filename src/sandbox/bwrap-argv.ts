/**
 * The bubblewrap command line of one boxed command (DESIGN.md "Sandbox"). Mounts, later over earlier:
 * 1. the whole file system read-only, a fresh /dev and /proc (own pid namespace), no network namespace of its own
 *    but loopback, a new session (no typing into the user's terminal);
 * 2. the session's private temp directory (TMPDIR) writable, the box's control directory (proxy sockets, the
 *    seccomp program) read-only, both at their own paths (the host's /tmp stays readable, as everything does);
 * 3. the writable places: the project, the added directories, `allowWrite`;
 * 4. read-only again: `denyWrite` and the control files (`.git/hooks`, `.git/config`, `.claude/`, `.mca/`); a
 *    control directory that does not exist yet gets an empty read-only placeholder, removed after the command;
 * 5. hidden: `denyRead` and the credential places (an empty read-only directory, or /dev/null for a file).
 * Inside, a small script starts socat relays from loopback ports to the proxy's unix sockets, waits until they
 * listen, then runs the command under a nested bubblewrap that only adds the seccomp program (unix sockets closed),
 * so the relays, which need a unix socket, are outside that program.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const HTTP_PROXY_PORT = 3128;
export const SOCKS_PROXY_PORT = 1080;

export interface BoxLayout {
  /** Absolute real paths. */
  writable: readonly string[];
  /** Read-only over writable places (denyWrite, control files). */
  readOnly: readonly string[];
  /** Control directories to block that do not exist yet (placeholders are created by bwrap). */
  placeholders: readonly string[];
  /** Hidden: denyRead and credential places. */
  hidden: readonly string[];
  /** The session's private temp directory (writable in the box at the same path; TMPDIR). */
  privateTmp: string;
  /** The control directory on the host (proxy sockets, the seccomp program, the empty directory). */
  controlDir: string;
  /** Unix sockets stay open (allowAllUnixSockets, or listed sockets bound in). */
  unixSocketsOpen: boolean;
  /** Listed unix sockets to bind into the box (their parents may be hidden otherwise). */
  unixSockets: readonly string[];
  /** socat is there: the relays to the proxy start (without it the box has no network at all). */
  relays: boolean;
  cwd: string;
}

/** The real path of `path` when it exists, else undefined. */
export function realIfExists(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function hide(path: string, emptyDir: string): string[] {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return [];
  }
  return directory ? ['--ro-bind', emptyDir, path] : ['--ro-bind', '/dev/null', path];
}

/**
 * The script the outer box runs: relays started, then the command under the seccomp program. The wait until both
 * relays listen runs inside that program, just before the command, so it overlaps the nested bwrap's start.
 */
function launcher(layout: BoxLayout): string {
  const relay = (port: number, socket: string): string =>
    `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr ${quote(`UNIX-CONNECT:${layout.controlDir}/${socket}`)} </dev/null >/dev/null 2>&1 &`;
  // LISTEN sockets in /proc/net/tcp: local address 0100007F:<port in hex>, state 0A.
  const hex = (port: number): string => port.toString(16).toUpperCase().padStart(4, '0');
  const wait =
    'i=0; while [ $i -lt 200 ]; do ' +
    `[ "$(grep -c -E ':(${hex(HTTP_PROXY_PORT)}|${hex(SOCKS_PROXY_PORT)}) 00000000:0000 0A' /proc/net/tcp)" -ge 2 ] && break; ` +
    'sleep 0.01; i=$((i+1)); done; exec "$@"';
  // The command, after the wait when there are relays: `sh -c <wait> mca-box-wait <shell> -c <command>`.
  const command = layout.relays ? `/bin/sh -c ${quote(wait)} mca-box-wait "$@"` : '"$@"';
  const run = layout.unixSocketsOpen
    ? `exec ${command}`
    : `exec bwrap --die-with-parent --dev-bind / / --seccomp 9 -- ${command} 9<${quote(`${layout.controlDir}/unix-sockets.bpf`)}`;
  const relays = layout.relays ? [relay(HTTP_PROXY_PORT, 'http.sock'), relay(SOCKS_PROXY_PORT, 'socks.sock')] : [];
  return [...relays, run].join('\n');
}

/** bwrap's arguments for `shell -c command` in the box. */
export function bwrapArgs(layout: BoxLayout, shell: string, command: string): string[] {
  const emptyDir = join(layout.controlDir, 'empty');
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    layout.privateTmp,
    layout.privateTmp,
    '--ro-bind',
    layout.controlDir,
    layout.controlDir,
  ];
  for (const path of layout.writable) args.push('--bind', path, path);
  for (const path of layout.readOnly) if (existsSync(path)) args.push('--ro-bind', path, path);
  for (const path of layout.placeholders) args.push('--ro-bind', emptyDir, path);
  for (const path of layout.hidden) args.push(...hide(path, emptyDir));
  for (const socket of layout.unixSockets) if (existsSync(socket)) args.push('--bind', socket, socket);
  args.push('--chdir', layout.cwd, '--', '/bin/sh', '-c', launcher(layout), 'mca-box', shell, '-c', command);
  return args;
}

/** One shell word. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The proxy variables the boxed command gets (HTTP, HTTPS and SOCKS clients all find one). */
export function proxyEnvironment(): Record<string, string> {
  const http = `http://127.0.0.1:${HTTP_PROXY_PORT}`;
  const socks = `socks5h://127.0.0.1:${SOCKS_PROXY_PORT}`;
  return {
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    http_proxy: http,
    https_proxy: http,
    ALL_PROXY: socks,
    all_proxy: socks,
  };
}
