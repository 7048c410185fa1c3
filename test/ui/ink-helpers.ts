/** Helpers for driving the Ink app in tests. */

// Strips ANSI colour codes so frames can be compared as plain text.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(ANSI, '');
}

/** Lets React and Ink process pending work (effects, promise chains, Ink's escape flush). */
export async function settle(rounds = 3): Promise<void> {
  for (let index = 0; index < rounds; index++) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits until `check` passes, polling the event loop; throws the last failure if it never does. */
export async function until(check: () => void, attempts = 200): Promise<void> {
  let last: unknown;
  for (let index = 0; index < attempts; index++) {
    try {
      check();
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw last;
}

export const KEYS = {
  enter: '\r',
  altEnter: '\x1b\r',
  ctrlJ: '\n',
  ctrlC: '\x03',
  ctrlD: '\x04',
  escape: '\x1b',
  tab: '\t',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  backspace: '\x7f',
} as const;
