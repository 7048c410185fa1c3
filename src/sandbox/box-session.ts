/**
 * The box's moving parts for one session, made on its first boxed command: a private directory (0700) holding the
 * private temp directory (TMPDIR), the proxy's unix sockets, the seccomp program and an empty directory for hidden places; the
 * filtering proxy (network-proxy.ts). Each command gets its bwrap command line (bwrap-argv.ts) built from the
 * current layout (added directories may have grown), and afterwards the placeholders it created are removed and a
 * failure is explained (blocked-reason.ts).
 */
import { mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BoxAvailability } from './availability.js';
import { blockedNote, blockedReasons } from './blocked-reason.js';
import { planLayout, type BoxPlaces } from './box-layout.js';
import { bwrapArgs, proxyEnvironment, realIfExists } from './bwrap-argv.js';
import type { BoxedSpawn } from '../tools/processes/bash-box.js';
import { startNetworkProxy, type NetworkProxy } from './network-proxy.js';
import type { SandboxSettings } from './sandbox-settings.js';
import { filtersHere, unixSocketFilter } from './seccomp-filter.js';

/** Variables that would point a boxed command at a socket or agent outside the box. */
const DROPPED = ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS', 'NO_PROXY', 'no_proxy'];

export async function openBoxSession(
  settings: SandboxSettings,
  availability: Extract<BoxAvailability, { ok: true }>,
  places: BoxPlaces,
) {
  const base = mkdtempSync(join(tmpdir(), 'mca-box-'));
  const controlDir = join(base, 'control');
  const privateTmp = join(base, 'tmp');
  mkdirSync(controlDir, { mode: 0o700 });
  mkdirSync(join(controlDir, 'empty'), { mode: 0o500 });
  mkdirSync(privateTmp, { mode: 0o700 });
  writeFileSync(join(controlDir, 'unix-sockets.bpf'), unixSocketFilter(), { mode: 0o400 });
  let network: NetworkProxy;
  try {
    network = await startNetworkProxy(controlDir, {
      allowedDomains: settings.allowedDomains,
      deniedDomains: settings.deniedDomains,
    });
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
  // A session that ends without close() (an exit from anywhere) still leaves no directory behind.
  const removeBase = (): void => rmSync(base, { recursive: true, force: true });
  process.once('exit', removeBase);
  const unixSocketsOpen = settings.allowAllUnixSockets || settings.allowUnixSockets.length > 0 || !filtersHere();
  const unixSockets = settings.allowUnixSockets.map((path) => realIfExists(path) ?? path);

  return {
    async spawn(command: string, shell: string, env: Record<string, string>): Promise<BoxedSpawn> {
      const planned = planLayout(settings, {
        projectRoot: places.projectRoot,
        roots: places.roots(),
        home: places.home,
        mcaHome: places.mcaHome,
      });
      const layout = {
        ...planned,
        privateTmp,
        controlDir,
        unixSocketsOpen,
        unixSockets,
        cwd: places.projectRoot,
      };
      // Without socat there is no relay: the box has no network at all, and no proxy to name.
      const proxy = availability.socat === undefined ? {} : proxyEnvironment();
      const boxEnv: Record<string, string> = { ...env, ...proxy, TMPDIR: privateTmp };
      for (const name of DROPPED) delete boxEnv[name];
      const started = Date.now();
      return {
        file: availability.bwrap,
        args: bwrapArgs({ ...layout, relays: availability.socat !== undefined }, shell, command),
        env: boxEnv,
        finish: (outcome) => {
          for (const placeholder of planned.placeholders) {
            try {
              rmdirSync(placeholder);
            } catch {
              // Existed after all, or holds something: left alone.
            }
          }
          return Promise.resolve(
            blockedNote(
              blockedReasons({
                command,
                stdout: outcome.stdout,
                stderr: outcome.stderr,
                refusals: network.refusalsSince(started),
                hidden: planned.hidden,
                home: places.home,
                unixSocketsOpen,
                failed: outcome.failed,
              }),
            ),
          );
        },
      };
    },
    async close(): Promise<void> {
      await network.close();
      process.removeListener('exit', removeBase);
      removeBase();
    },
  };
}
