import { useStdin, useStdout } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createKeySplitter } from './key-splitter.js';
import { parseKey, type KeyEvent } from './keys.js';

/**
 * Subscribes to raw terminal input and hands out editor key events. Raw mode is on while the component is mounted;
 * Ink turns it off again on unmount, so no exit path leaves it on.
 *
 * The input is read through Ink's public `useStdin().stdin`: Ink pulls it with `read()` from its 'readable'
 * listener, and a Node stream emits every chunk `read()` returns as 'data' too, so listening to 'data' sees each
 * chunk once without taking it from Ink or switching the stream to flowing mode. Ink's own `useInput` is not used:
 * in Ink 6 it reports Backspace (\x7f) and Delete (ESC[3~) alike and cannot tell a paste from typing (`usePaste`
 * arrives with Ink 7, which needs Node 22).
 */
export function useRawKeys(handler: (key: KeyEvent) => void): void {
  const { stdin, setRawMode, isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    // Without raw mode Ink never reads the input; neither does this hook (a 'data' listener would start the flow).
    if (!isRawModeSupported) return;
    setRawMode(true);
    // Bracketed paste: the terminal marks a paste's start and end, so a long paste read in many chunks is one paste.
    const pasteMode = (on: boolean): void => void stdout.write(on ? '\x1b[?2004h' : '\x1b[?2004l');
    const pasteModeOff = (): void => pasteMode(false);
    pasteMode(true);
    process.once('exit', pasteModeOff);
    const splitter = createKeySplitter();
    let flushing: NodeJS.Immediate | undefined;
    const deliver = (events: readonly string[]): void => {
      for (const raw of events) for (const key of parseKey(raw)) latest.current(key);
    };
    // An escape sequence cut at a chunk's end waits one tick for its rest; then it is a key of its own (Esc).
    const flush = (): void => {
      flushing = undefined;
      const rest = splitter.flush();
      if (rest !== undefined) deliver([rest]);
    };
    const onData = (chunk: string | Buffer): void => {
      if (flushing !== undefined) clearImmediate(flushing);
      flushing = undefined;
      deliver(splitter.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8')));
      if (splitter.hasPending()) flushing = setImmediate(flush);
    };
    stdin.on('data', onData);
    return () => {
      stdin.off('data', onData);
      if (flushing !== undefined) clearImmediate(flushing);
      pasteModeOff();
      process.off('exit', pasteModeOff);
      setRawMode(false);
    };
  }, [isRawModeSupported, setRawMode, stdin, stdout]);
}

/**
 * State mirrored in a ref: key handlers run several events from one chunk before React re-renders
 * (e.g. "text" then Enter), so they must read and write the newest value synchronously.
 */
export function useLatestState<T>(
  initial: () => T,
): [{ readonly current: T }, (next: T | ((previous: T) => T)) => void] {
  const holder = useRef<{ current: T } | null>(null);
  if (holder.current === null) holder.current = { current: initial() };
  const box = holder.current;
  const [, setTick] = useState(0);
  const set = useCallback(
    (next: T | ((previous: T) => T)): void => {
      box.current = typeof next === 'function' ? (next as (previous: T) => T)(box.current) : next;
      setTick((tick) => tick + 1);
    },
    [box],
  );
  return [box, set];
}
