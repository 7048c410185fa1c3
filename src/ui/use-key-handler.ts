/**
 * Routes key events to whatever has focus: the permission prompt, the session picker, or the input box
 * (editing, history, completion, submit, Ctrl-C/Ctrl-D handling).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyEvent } from './keys.js';
import * as edit from './input-state.js';
import type { InputState } from './input-state.js';
import { applyCompletion, commonPrefix, extendToCommonPrefix, findMentionAtCursor } from './path-completion.js';
import { dispatchSlash, parseSlashCommand, suggestSlashCommands } from './slash-commands.js';
import type { ReplCore } from './use-repl.js';
import { useLatestState, useRawKeys } from './use-raw-keys.js';

/** A second Ctrl-C on an empty prompt within this window exits. */
export const EXIT_CONFIRM_MS = 2000;

export interface KeyHandlerOptions {
  core: ReplCore;
  history: readonly string[];
  onHistory: (history: string[]) => void;
  completePath: (prefix: string) => Promise<string[]>;
  now: () => number;
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

export function useKeyHandler({ core, history, onHistory, completePath, now }: KeyHandlerOptions) {
  const [inputRef, setInput] = useLatestState<InputState>(() => edit.emptyInput(history));
  const [pathSuggestions, setPathSuggestions] = useState<string[]>([]);
  const [exitHint, setExitHint] = useState<string | undefined>(undefined);
  const exitArmedAt = useRef<number | null>(null);
  const completionSeq = useRef(0);
  const input = inputRef.current;

  // Live @path suggestions for the mention under the cursor.
  useEffect(() => {
    const token = findMentionAtCursor(input.text, input.cursor);
    const seq = ++completionSeq.current;
    if (!token) {
      setPathSuggestions([]);
      return;
    }
    completePath(token.prefix).then(
      (paths) => {
        if (seq === completionSeq.current) setPathSuggestions(paths);
      },
      () => setPathSuggestions([]),
    );
  }, [input.text, input.cursor, completePath]);

  useEffect(() => {
    if (!exitHint) return;
    const timer = setTimeout(() => {
      exitArmedAt.current = null;
      setExitHint(undefined);
    }, EXIT_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [exitHint]);

  const complete = useCallback(() => {
    const state = inputRef.current;
    const commands = suggestSlashCommands(state.text.slice(0, state.cursor) === state.text ? state.text : '');
    if (commands.length > 0) {
      const shared = commonPrefix(commands.map((command) => command.name));
      const typed = state.text.slice(1);
      const name = commands.length === 1 || shared.length <= typed.length ? commands[0]?.name : shared;
      const text = commands.length === 1 || shared.length <= typed.length ? `/${name} ` : `/${shared}`;
      setInput(edit.replaceText(state, text));
      return;
    }
    const token = findMentionAtCursor(state.text, state.cursor);
    if (!token) return;
    completePath(token.prefix).then(
      (paths) => {
        const current = inputRef.current;
        if (current.text !== state.text || current.cursor !== state.cursor || paths.length === 0) return;
        const next =
          paths.length === 1 && paths[0] !== undefined
            ? applyCompletion(current.text, token, paths[0])
            : extendToCommonPrefix(current.text, token, paths);
        if (next) setInput(edit.replaceText(current, next.text, next.cursor));
        setPathSuggestions(paths);
      },
      () => undefined,
    );
  }, [completePath, inputRef, setInput]);

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
    const parsed = parseSlashCommand(text);
    if (parsed) dispatchSlash(parsed, core.slash);
    else core.runTurn(text);
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
      if (pending.reason) {
        if (key.kind === 'escape') return core.answerPermission({ approved: false });
        if (key.kind === 'submit') {
          const reason = pending.reason.text.trim();
          return core.answerPermission(reason ? { approved: false, reason } : { approved: false });
        }
        const reasonState = editKey(pending.reason, key, false);
        if (reasonState) core.setPermission({ ...pending, reason: reasonState });
        return;
      }
      const choose = (index: number): void => {
        if (index === 0) core.answerPermission({ approved: true });
        else if (index === 1) core.answerPermission({ approved: true, remember: true });
        else core.setPermission({ ...pending, selected: 2, reason: edit.emptyInput() });
      };
      if (key.kind === 'escape') return core.answerPermission({ approved: false });
      if (key.kind === 'up') return core.setPermission({ ...pending, selected: (pending.selected + 2) % 3 });
      if (key.kind === 'down') return core.setPermission({ ...pending, selected: (pending.selected + 1) % 3 });
      if (key.kind === 'submit') return choose(pending.selected);
      if (key.kind !== 'text') return;
      const char = key.text.toLowerCase();
      if (char === '1' || char === 'y') choose(0);
      else if (char === '2') choose(1);
      else if (char === '3') choose(2);
      else if (char === 'n') core.answerPermission({ approved: false });
    },
    [core],
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
      const busy = core.busyRef.current;
      if (key.kind === 'escape') {
        if (busy) core.interrupt();
        return;
      }
      // Compaction blocks input (spec C2): only Ctrl-C/Esc get through.
      if (busy === 'compact' || core.transcript.live.compacting) return;
      if (key.kind === 'ctrl' && key.key === 'd') {
        if (!busy && !inputRef.current.text) return core.exit();
        return setInput(edit.deleteForward(inputRef.current));
      }
      if (key.kind === 'submit') {
        if (!busy) submit();
        return;
      }
      if (key.kind === 'tab') return complete();
      const next = editKey(inputRef.current, key, true);
      if (next) setInput(next);
    },
    [complete, core, ctrlC, inputRef, permissionKey, pickerKey, setInput, submit],
  );

  useRawKeys(handleKey);

  return { input, pathSuggestions, exitHint };
}
