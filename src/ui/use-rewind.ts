/** The rewind dialog's state and actions (rewind-dialog.ts says what it shows); keys arrive from use-key-handler. */
import { useCallback, useMemo } from 'react';
import type { SessionDriver } from '../driver/session-driver.js';
import type { KeyEvent } from './keys.js';
import { errorText } from './repl-driver-view.js';
import { describeResult, newestFirst, REWIND_CHOICES, type RewindPort, type RewindState } from './rewind-dialog.js';
import { useLatestState } from './use-raw-keys.js';

export interface RewindDeps {
  port: RewindPort | undefined;
  driver: SessionDriver;
  notice(text: string, tone?: 'info' | 'warning' | 'error'): void;
}

export function useRewind({ port, driver, notice }: RewindDeps) {
  const [rewindRef, setRewind] = useLatestState<RewindState | null>(() => null);

  const open = useCallback(() => {
    if (!port) return notice('Checkpoints are off in this session (MCA_CHECKPOINTS=off).', 'warning');
    if (driver.busy) return notice('Wait for the turn to end (or interrupt it) before rewinding.', 'warning');
    setRewind({ stage: 'list', checkpoints: null, selected: 0 });
    port.listCheckpoints(driver.controller.sessionId).then(
      (list) => setRewind((state) => (state?.stage === 'list' ? { ...state, checkpoints: newestFirst(list) } : state)),
      (error: unknown) => {
        setRewind(null);
        notice(`Cannot list checkpoints: ${errorText(error)}`, 'error');
      },
    );
  }, [driver, notice, port, setRewind]);

  /** Runs the chosen rewind; answers the prompt text to put back in the input box (conversation rewinds). */
  const apply = useCallback(
    async (index: number): Promise<string | undefined> => {
      const state = rewindRef.current;
      const choice = REWIND_CHOICES[index];
      setRewind(null);
      if (!port || state?.stage !== 'choose' || !choice) return undefined;
      const sessionId = driver.controller.sessionId;
      try {
        const result = await port.rewind(sessionId, state.checkpoint.id, {
          code: choice.code,
          conversation: choice.conversation,
          force: true,
        });
        const message = describeResult(result, choice);
        if (choice.conversation) await driver.resume(sessionId, { message });
        else notice(message);
        return result.promptText;
      } catch (error) {
        notice(`Rewind failed: ${errorText(error)}`, 'error');
        return undefined;
      }
    },
    [driver, notice, port, rewindRef, setRewind],
  );

  /** A key while the dialog is open; `putBack` receives the prompt text a conversation rewind returns. */
  const key = useCallback(
    (event: KeyEvent, putBack: (text: string) => void): void => {
      const state = rewindRef.current;
      if (!state || !port) return;
      if (event.kind === 'ctrl' && event.key === 'c') return setRewind(null);
      if (state.stage === 'list') {
        const count = state.checkpoints?.length ?? 0;
        if (event.kind === 'escape') return setRewind(null);
        if (event.kind === 'up' && count > 0)
          return setRewind({ ...state, selected: (state.selected + count - 1) % count });
        if (event.kind === 'down' && count > 0) return setRewind({ ...state, selected: (state.selected + 1) % count });
        const checkpoint = state.checkpoints?.[state.selected];
        if (event.kind !== 'submit' || !checkpoint) return;
        setRewind({ stage: 'choose', checkpoint, selected: 0, preview: null });
        port
          .rewind(driver.controller.sessionId, checkpoint.id, {
            code: true,
            conversation: false,
            dryRun: true,
            force: true,
          })
          .then(
            (result) =>
              setRewind((now) =>
                now?.stage === 'choose' && now.checkpoint === checkpoint ? { ...now, preview: result.plan } : now,
              ),
            (error: unknown) => notice(`Cannot preview the rewind: ${errorText(error)}`, 'error'),
          );
        return;
      }
      const count = REWIND_CHOICES.length;
      if (event.kind === 'escape') return (setRewind({ stage: 'list', checkpoints: null, selected: 0 }), open());
      if (event.kind === 'up') return setRewind({ ...state, selected: (state.selected + count - 1) % count });
      if (event.kind === 'down') return setRewind({ ...state, selected: (state.selected + 1) % count });
      const digit = event.kind === 'text' ? Number(event.text) : NaN;
      const chosen = event.kind === 'submit' ? state.selected : Number.isInteger(digit) ? digit - 1 : -1;
      if (chosen < 0 || chosen >= count) return;
      void apply(chosen).then((text) => {
        if (text) putBack(text);
      });
    },
    [apply, driver, notice, open, port, rewindRef, setRewind],
  );

  /** `/context`: one line with the checkpoint store's size. */
  const showStoreSize = useCallback(() => {
    if (!port) return;
    port.storeBytes(driver.controller.sessionId).then(
      (bytes) => notice(`Checkpoints: ${(bytes / 1e6).toFixed(1)} MB stored for this session (under MCA_HOME).`),
      () => undefined,
    );
  }, [driver, notice, port]);

  return useMemo(() => ({ rewindRef, open, key, showStoreSize }), [key, open, rewindRef, showStoreSize]);
}
