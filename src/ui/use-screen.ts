/**
 * The terminal around the REPL: its size (following resizes), and full redraws. Finished transcript items are
 * written once (Ink's <Static>), so anything that changes how they look (a new width, the verbose transcript) or
 * clears them (/clear, Ctrl-L) clears the screen and scrollback and remounts <Static> under a new key, which
 * writes the items again. A resize redraws once it settles, in two steps: first the live area is drawn at the new
 * width, then the screen is cleared (Ink restores the live area it last drew, so that must already be the new one)
 * and the items are written again. No frame drawn at the old width stays behind. The clear is timed from the commit
 * of the new size, not from the resize event: on a loaded machine React may commit late, and Ink's render of that
 * commit (throttled, its timer set at the commit) must come first.
 */
import { useStdout } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Clear screen, clear scrollback, cursor home. */
export const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';
/** A resize redraws this long after the last resize event (terminals send several while dragging). */
export const RESIZE_SETTLE_MS = 80;
/**
 * Time after the new size's commit for Ink to draw the live area at the new width before the clear. Ink renders at
 * most every ~33 ms; its throttle timer is set at the commit, so a longer timer set after the commit fires later.
 */
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
  /** Set when a resize changed `size`; the effect on `size` then schedules the redraw. */
  const resizePending = useRef(false);
  const redrawTimer = useRef<NodeJS.Timeout | null>(null);

  const redraw = useCallback(() => {
    write(CLEAR_SCREEN);
    setEpoch((value) => value + 1);
  }, [write]);

  useEffect(() => {
    const onResize = (): void => {
      if (timer.current) clearTimeout(timer.current);
      // A redraw planned for the previous size would clear under a frame about to change again.
      if (redrawTimer.current) clearTimeout(redrawTimer.current);
      redrawTimer.current = null;
      timer.current = setTimeout(() => {
        timer.current = null;
        resizePending.current = true;
        // A new object even for the same size, so the effect below runs and the redraw still happens.
        setSize({ columns: fixedColumns ?? stdout.columns ?? 80, rows: stdout.rows ?? 24 });
      }, RESIZE_SETTLE_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [fixedColumns, redraw, stdout]);

  // Runs after the commit of a new size (Ink has been asked to draw it by then).
  useEffect(() => {
    if (!resizePending.current) return;
    resizePending.current = false;
    if (redrawTimer.current) clearTimeout(redrawTimer.current);
    redrawTimer.current = setTimeout(() => {
      redrawTimer.current = null;
      redraw();
    }, RENDER_SETTLE_MS);
  }, [size, redraw]);

  useEffect(
    () => () => {
      if (redrawTimer.current) clearTimeout(redrawTimer.current);
    },
    [],
  );

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
