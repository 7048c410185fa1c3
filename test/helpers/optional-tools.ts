/**
 * Programs some tests need but mca does not (ripgrep: Grep falls back to its JS engine; tmux: only the REPL e2e
 * test drives a terminal). On a fresh machine without them those tests skip with a printed reason, so
 * `npm ci && npm run build && npm test` passes; `.ci/run` installs both and sets MCA_REQUIRE_OPTIONAL_TOOLS=1, under
 * which the tests run whatever the PATH holds, and fail with a clear message if a program is missing.
 */
import { execFileSync } from 'node:child_process';
export const OPTIONAL_TOOLS_REQUIRED = process.env.MCA_REQUIRE_OPTIONAL_TOOLS === '1';

/** Whether tests that need `program` run here; prints why when they are skipped. */
export function runsWith(program: string, installed: boolean, what: string): boolean {
  if (installed || OPTIONAL_TOOLS_REQUIRED) return true;
  console.warn(
    `skipping ${what}: ${program} is not installed (.ci/run installs it and sets MCA_REQUIRE_OPTIONAL_TOOLS=1, ` +
      'which makes these tests mandatory)',
  );
  return false;
}

/** Whether the Bash sandbox can run here: bubblewrap can unshare the network (user namespaces) and socat exists. */
export function sandboxWorks(): boolean {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--', '/bin/true'], { stdio: 'ignore' });
    execFileSync('socat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
