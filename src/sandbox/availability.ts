/**
 * Whether the box can start here, asked once when the sandbox is on: bubblewrap on PATH and able to make its
 * namespaces (user namespaces may be switched off by the kernel or a container), and socat for the network relays.
 * The answer names why not, for the start-up line, `/sandbox` and `/doctor`.
 */
import { execFile } from 'node:child_process';
import { findExecutable } from '../tools/processes/which.js';

export type BoxAvailability = { ok: true; bwrap: string; socat: string | undefined } | { ok: false; reason: string };

const PROBE_TIMEOUT_MS = 5000;

export async function probeBox(platform: NodeJS.Platform = process.platform): Promise<BoxAvailability> {
  if (platform === 'darwin') return { ok: false, reason: 'macOS Seatbelt is not implemented in mca yet' };
  if (platform !== 'linux') return { ok: false, reason: `no sandbox on ${platform}` };
  const bwrap = findExecutable('bwrap');
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap socat' };
  const socat = findExecutable('socat');
  const failure = await new Promise<string | undefined>((resolve) => {
    execFile(
      bwrap,
      ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--', '/bin/true'],
      { timeout: PROBE_TIMEOUT_MS },
      (error, _stdout, stderr) => {
        if (!error) resolve(undefined);
        else resolve(stderr.trim().split('\n')[0] || error.message);
      },
    );
  });
  if (failure !== undefined) return { ok: false, reason: `bubblewrap cannot create its namespaces here (${failure})` };
  return { ok: true, bwrap, socat };
}
