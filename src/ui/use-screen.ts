/**
 * The terminal around the REPL: its size (following resizes), and full redraws. Finished transcript items are
 * written once (Ink's <Static>), so anything that changes how they look (a new width, the verbose transcript) or
 * clears them (/clear, Ctrl-L) clears the screen and scrollback and remounts <Static> under a new key, which
 * writes the items again. A resize redraws once it settles, in two steps: first the live area is drawn at the new
 * width, then the screen is cleared (Ink restores the live area it last drew, so that must already be the new one)
 * and the items are written again. No frame drawn at the old width stays behind.
 */
import { useStdout } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Clear screen, clear scrollback, cursor home. */
export const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';
/** A resize redraws this long after the last resize event (terminals send several while dragging). */
export const RESIZE_SETTLE_MS = 80;
/** Time for Ink to draw the live area at the new width (it renders at most every ~33 ms) before the clear. */
const RENDER_SETTLE_MS = 60;

export interface Screen {
  columns: number;
  rows: number;
  /** The <Static> key: bumped by every redraw. */
  epoch: number;
  verbose: boolean;
  redraw(): void;
  toggleVerbose(): void;
}

export function useScreen(fixedColumns: number | undefined): Screen {
  const { stdout, write } = useStdout();
  const [size, setSize] = useState(() => ({ columns: fixedColumns ?? stdout.columns ?? 80, rows: stdout.rows ?? 24 }));
  const [epoch, setEpoch] = useState(0);
  const [verbose, setVerbose] = useState(false);
  const timer = useRef<NodeJS.Timeout | null>(null);

  const redraw = useCallback(() => {
    write(CLEAR_SCREEN);
    setEpoch((value) => value + 1);
  }, [write]);

  useEffect(() => {
    const onResize = (): void => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        setSize({ columns: fixedColumns ?? stdout.columns ?? 80, rows: stdout.rows ?? 24 });
        timer.current = setTimeout(() => {
          timer.current = null;
          redraw();
        }, RENDER_SETTLE_MS);
      }, RESIZE_SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [fixedColumns, redraw, stdout]);

  const toggleVerbose = useCallback(() => {
    setVerbose((value) => !value);
    redraw();
  }, [redraw]);

  return {
    columns: Math.max(20, fixedColumns ?? size.columns),
    rows: size.rows,
    epoch,
    verbose,
    redraw,
    toggleVerbose,
  };
}
