/**
 * Routes key events to whatever has focus: the permission prompt, the session picker, or the input box
 * (editing, history, suggestions, submit, type-ahead, Ctrl-C/Ctrl-D handling).
 */
import type { CustomCommandInfo } from '../driver/custom-commands-port.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyEvent } from './keys.js';
import * as edit from './input-state.js';
import type { InputState } from './input-state.js';
import { permissionOptions } from './components/permission-prompt.js';
import { clampScroll, detailRows, detailWindow } from './permission-detail.js';
import { useSuggestions } from './use-suggestions.js';
import { DECLINE } from './use-permission.js';
import type { ReplCore } from './use-repl.js';
import { useLatestState, useRawKeys } from './use-raw-keys.js';

/** A second Ctrl-C on an empty prompt within this window exits. */
export const EXIT_CONFIRM_MS = 2000;

export interface KeyHandlerOptions {
  core: ReplCore;
  history: readonly string[];
  onHistory: (history: string[]) => void;
  completePath: (prefix: string) => Promise<string[]>;
  /** Custom slash commands, completed with Tab like the built-in ones. */
  customCommands?: readonly CustomCommandInfo[];
  now: () => number;
  /** Ctrl-L: clear the screen. Ctrl-O: switch the verbose transcript. */
  screen: { clear(): void; toggleVerbose(): void };
  /** The terminal's size, for scrolling the permission prompt by pages. */
  layout: { width: number; rows: number };
}

/** Plain editing keys shared by the input box and the permission reason line. */
function editKey(state: InputState, key: KeyEvent, multiline: boolean): InputState | null {
  switch (key.kind) {
    case 'text':
      return key.paste && multiline
        ? edit.insertPaste(state, key.text)
        : edit.insertText(state, key.text.replace(/\n/g, multiline ? '\n' : ' '));
    case 'newline':
      return multiline ? edit.insertNewline(state) : state;
    case 'backspace':
      return edit.backspace(state);
    case 'delete':
      return edit.deleteForward(state);
    case 'left':
      return edit.moveLeft(state);
    case 'right':
      return edit.moveRight(state);
    case 'home':
      return edit.moveHome(state);
    case 'end':
      return edit.moveEnd(state);
    case 'up':
      return multiline ? edit.moveUp(state) : state;
    case 'down':
      return multiline ? edit.moveDown(state) : state;
    case 'ctrl':
      if (key.key === 'a') return edit.moveHome(state);
      if (key.key === 'e') return edit.moveEnd(state);
      if (key.key === 'u') return edit.killToLineStart(state);
      if (key.key === 'k') return edit.killToLineEnd(state);
      if (key.key === 'w') return edit.deleteWordBack(state);
      return null;
    default:
      return null;
  }
}

export function useKeyHandler({
  core,
  history,
  onHistory,
  completePath,
  customCommands,
  now,
  screen,
  layout,
}: KeyHandlerOptions) {
  const [inputRef, setInput] = useLatestState<InputState>(() => edit.emptyInput(history));
  const [exitHint, setExitHint] = useState<string | undefined>(undefined);
  const exitArmedAt = useRef<number | null>(null);
  const input = inputRef.current;
  const suggestions = useSuggestions({ input, inputRef, setInput, completePath, customCommands: customCommands ?? [] });

  useEffect(() => {
    if (!exitHint) return;
    const timer = setTimeout(() => {
      exitArmedAt.current = null;
      setExitHint(undefined);
    }, EXIT_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [exitHint]);

  const submit = useCallback(() => {
    const result = edit.pressEnter(inputRef.current);
    if (result.kind === 'edit') {
      setInput(result.state);
      return;
    }
    const text = result.text;
    if (!text.trim()) return;
    const next = edit.afterSubmit(inputRef.current, text);
    setInput(next);
    onHistory([...next.history]);
    core.submit(text);
  }, [core, inputRef, onHistory, setInput]);

  const ctrlC = useCallback(() => {
    if (core.busyRef.current) {
      core.interrupt();
      return;
    }
    if (inputRef.current.text) {
      setInput(edit.clearInput(inputRef.current));
      return;
    }
    const armed = exitArmedAt.current;
    if (armed !== null && now() - armed <= EXIT_CONFIRM_MS) {
      core.exit();
      return;
    }
    exitArmedAt.current = now();
    setExitHint('Press Ctrl-C again to exit');
  }, [core, inputRef, now, setInput]);

  const permissionKey = useCallback(
    (key: KeyEvent) => {
      const pending = core.permissionRef.current;
      if (!pending) return;
      if (key.kind === 'ctrl' && key.key === 'c') return core.interrupt();
      if (key.kind === 'pageup' || key.kind === 'pagedown') {
        const total = detailRows(pending.request, layout.width - 4).length;
        const window = detailWindow(layout.rows);
        const page = Math.max(1, window - 1);
        const wanted = clampScroll(pending.scroll, total, window) + (key.kind === 'pageup' ? -page : page);
        return core.setPermission({ ...pending, scroll: clampScroll(wanted, total, window) });
      }
      if (pending.reason) {
        if (key.kind === 'escape') return core.answerPermission(DECLINE);
        if (key.kind === 'submit') {
          const reason = pending.reason.text.trim();
          return core.answerPermission(reason ? { approved: false, reason } : DECLINE);
        }
        const reasonState = editKey(pending.reason, key, false);
        if (reasonState) core.setPermission({ ...pending, reason: reasonState });
        return;
      }
      const options = permissionOptions(pending.request);
      const count = options.length;
      const choose = (index: number): void => {
        const choice = options[index]?.choice;
        if (choice === 'planAcceptEdits' || choice === 'planDefault') {
          core.setMode(choice === 'planAcceptEdits' ? 'acceptEdits' : 'default');
          return core.answerPermission({ approved: true });
        }
        if (choice === 'once') core.answerPermission({ approved: true });
        else if (choice === 'session') core.answerPermission({ approved: true, remember: true });
        else if (choice === 'always') {
          const rule = pending.request.remember?.rule;
          core.answerPermission({ approved: true, remember: true, persist: true });
          if (rule) core.saveRule(rule);
        } else if (choice === 'no') core.setPermission({ ...pending, selected: index, reason: edit.emptyInput() });
      };
      if (key.kind === 'escape') return core.answerPermission(DECLINE);
      if (key.kind === 'up')
        return core.setPermission({ ...pending, selected: (pending.selected + count - 1) % count });
      if (key.kind === 'down') return core.setPermission({ ...pending, selected: (pending.selected + 1) % count });
      if (key.kind === 'submit') return choose(pending.selected);
      if (key.kind !== 'text') return;
      const char = key.text.toLowerCase();
      const digit = Number(char);
      if (char === 'y') choose(0);
      else if (Number.isInteger(digit) && digit >= 1 && digit <= count) choose(digit - 1);
      else if (char === 'n') core.answerPermission(DECLINE);
    },
    [core, layout.rows, layout.width],
  );

  const pickerKey = useCallback(
    (key: KeyEvent) => {
      const picker = core.pickerRef.current;
      if (!picker) return;
      const count = picker.sessions?.length ?? 0;
      if (key.kind === 'escape' || (key.kind === 'ctrl' && key.key === 'c')) return core.setPicker(null);
      if (key.kind === 'up' && count > 0)
        return core.setPicker({ ...picker, selected: (picker.selected + count - 1) % count });
      if (key.kind === 'down' && count > 0)
        return core.setPicker({ ...picker, selected: (picker.selected + 1) % count });
      if (key.kind === 'submit') {
        const chosen = picker.sessions?.[picker.selected];
        if (chosen) core.slash.resumeSession(chosen.id);
        else core.setPicker(null);
      }
    },
    [core],
  );

  const handleKey = useCallback(
    (key: KeyEvent) => {
      if (core.permissionRef.current) return permissionKey(key);
      if (core.pickerRef.current) return pickerKey(key);
      if (key.kind === 'ctrl' && key.key === 'c') return ctrlC();
      if (key.kind === 'ctrl' && key.key === 'l') return screen.clear();
      if (key.kind === 'ctrl' && key.key === 'o') return screen.toggleVerbose();
      if (key.kind === 'backtab') return core.cycleMode();
      const busy = core.busyRef.current;
      if (key.kind === 'escape') {
        if (suggestions.dismiss()) return;
        if (busy && !core.dropQueued()) core.interrupt();
        return;
      }
      // Compaction blocks input (spec C2): only Ctrl-C/Esc get through.
      if (busy === 'compact' || core.transcript.live.compacting) return;
      if (key.kind === 'ctrl' && key.key === 'd') {
        if (!busy && !inputRef.current.text) return core.exit();
        return setInput(edit.deleteForward(inputRef.current));
      }
      if (suggestions.handle(key, submit)) return;
      if (key.kind === 'submit') return submit();
      const next = editKey(inputRef.current, key, true);
      if (next) setInput(next);
    },
    [core, ctrlC, inputRef, permissionKey, pickerKey, screen, setInput, submit, suggestions],
  );

  useRawKeys(handleKey);

  return { input, suggestions: suggestions.items, selectedSuggestion: suggestions.selected, exitHint };
}
