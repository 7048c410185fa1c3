/**
 * The REPL's custom status line (settings `statusLine`): runs the configured command when what it is told changes
 * (model, cost, context, session), at most one run at a time and not more often than every STATUS_DEBOUNCE_MS, and
 * keeps the last line it printed. A slow or failing command never delays a key or a frame.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReplInfoPort, StatusState } from './info-port.js';

const STATUS_DEBOUNCE_MS = 300;

export function useStatusCommand(info: ReplInfoPort | undefined, state: StatusState): string | undefined {
  const [line, setLine] = useState<string | undefined>(undefined);
  const running = useRef(false);
  const wanted = useRef<StatusState | null>(null);
  const key = JSON.stringify(state);
  const run = info?.statusLine;
  useEffect(() => {
    if (!run) return;
    wanted.current = state;
    /** Runs for the newest state; a change that came in meanwhile runs once more when this run ends. */
    const start = (): void => {
      if (running.current || wanted.current === null) return;
      const next = wanted.current;
      wanted.current = null;
      running.current = true;
      void run(next).then((printed) => {
        running.current = false;
        setLine(printed);
        start();
      });
    };
    const timer = setTimeout(start, STATUS_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `key` stands for `state`: a new object with the same content is no change.
  }, [key, run]);
  return line;
}
