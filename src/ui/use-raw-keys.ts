import { useStdin } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseKey, type KeyEvent } from './keys.js';

/**
 * Subscribes to raw terminal input (Ink's parsed chunks) and hands out editor key events. Raw mode is on
 * while the component is mounted; Ink turns it off again on unmount, so no exit path leaves it on.
 */
export function useRawKeys(handler: (key: KeyEvent) => void): void {
  const { internal_eventEmitter: emitter, setRawMode, isRawModeSupported } = useStdin();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [isRawModeSupported, setRawMode]);
  useEffect(() => {
    const onInput = (raw: string): void => {
      for (const key of parseKey(raw)) latest.current(key);
    };
    emitter.on('input', onInput);
    return () => {
      emitter.off('input', onInput);
    };
  }, [emitter]);
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
