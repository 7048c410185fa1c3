/**
 * Routes key events to whatever has focus: the permission prompt, the session picker, or the input box
 * (editing, history, suggestions, submit, type-ahead, Ctrl-C/Ctrl-D handling).
 */
import { moveToBackground } from '../tools/processes/foreground-commands.js';
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
import { clipboardImage, pastedImage } from './image-paste.js';
import { acceptSearch, olderMatch, searchLine, startSearch, withQuery, type HistorySearch } from './history-search.js';

/** A second Ctrl-C on an empty prompt within this window exits. */
export const EXIT_CONFIRM_MS = 2000;
/** Two Esc presses on an empty prompt within this window open the rewind dialog (as wide as Ctrl-C twice). */
export const DOUBLE_ESCAPE_MS = 2000;

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

/** At most this many keys in one chunk are taken one by one at the permission prompt; a longer chunk is a paste. */
const MAX_KEYS_PER_CHUNK = 8;

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
    const images = edit.attachedImages(inputRef.current);
    const next = edit.afterSubmit(inputRef.current, text);
    setInput(next);
    onHistory([...next.history]);
    core.submit(text, images);
  }, [core, inputRef, onHistory, setInput]);

  /** Ctrl+V: the clipboard's image, when a clipboard tool finds one, as [Image #N] at the cursor. */
  const pasteClipboard = useCallback(() => {
    void clipboardImage().then((read) => {
      if (read.ok) setInput(edit.insertImage(inputRef.current, read.image));
      else core.notice(read.message, 'warning');
    });
  }, [core, inputRef, setInput]);

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

  /** The permission handler itself, for the keys of one chunk it feeds back one at a time. */
  const permissionKeyRef = useRef<(key: KeyEvent) => void>(() => undefined);
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
      if (pending.confirmAlways) {
        // Only `y` saves the permanent rule; Esc declines as everywhere; any other key goes back to the options.
        if (key.kind === 'escape') return core.answerPermission(DECLINE);
        if (key.kind === 'text' && key.text.toLowerCase() === 'y') {
          const rule = pending.request.remember?.rule;
          core.answerPermission({ approved: true, remember: true, persist: true });
          if (rule) core.saveRule(rule);
          return;
        }
        return core.setPermission({ ...pending, confirmAlways: false });
      }
      const options = permissionOptions(pending.request);
      const count = options.length;
      const choose = (index: number): void => {
        const option = options[index];
        if (!option || option.disabled) return;
        const choice = option.choice;
        if (choice === 'planAcceptEdits' || choice === 'planDefault') {
          core.setMode(choice === 'planAcceptEdits' ? 'acceptEdits' : 'default');
          return core.answerPermission({ approved: true });
        }
        if (choice === 'once') core.answerPermission({ approved: true });
        else if (choice === 'session') core.answerPermission({ approved: true, remember: true });
        else if (choice === 'always') core.setPermission({ ...pending, selected: index, confirmAlways: true });
        else if (choice === 'no') core.setPermission({ ...pending, selected: index, reason: edit.emptyInput() });
      };
      /** The next selectable option from `from` in `step` direction (a disabled option is skipped). */
      const move = (step: number): number => {
        let index = pending.selected;
        for (let tries = 0; tries < count; tries += 1) {
          index = (index + step + count) % count;
          if (!options[index]?.disabled) return index;
        }
        return pending.selected;
      };
      if (key.kind === 'escape') return core.answerPermission(DECLINE);
      if (key.kind === 'up') return core.setPermission({ ...pending, selected: move(-1) });
      if (key.kind === 'down') return core.setPermission({ ...pending, selected: move(1) });
      if (key.kind === 'submit') return choose(pending.selected);
      if (key.kind !== 'text') return;
      if ([...key.text].length > 1) {
        // Several keys in one chunk: a fast typist (or a loaded machine merging reads) gets each key in order, as
        // if pressed apart; a longer paste answers nothing. The confirmation of a permanent rule is never taken
        // from the same chunk as the 4 that asked for it.
        if ([...key.text].length > MAX_KEYS_PER_CHUNK) return;
        for (const single of key.text) {
          const now = core.permissionRef.current;
          if (!now || now.confirmAlways) return;
          permissionKeyRef.current({ kind: 'text', text: single, paste: false });
        }
        return;
      }
      const char = key.text.toLowerCase();
      const digit = Number(char);
      const byKey = options.findIndex((option) => option.key === digit);
      if (char === 'y') choose(0);
      else if (Number.isInteger(digit) && byKey >= 0) choose(byKey);
      else if (char === 'n') core.answerPermission(DECLINE);
    },
    [core, layout.rows, layout.width],
  );
  permissionKeyRef.current = permissionKey;

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

  /** `#`, `/memory`, `/model`: ↑↓ or a digit, Enter chooses, Esc or Ctrl-C closes without a choice. */
  const choiceKey = useCallback(
    (key: KeyEvent) => {
      const choice = core.choiceRef.current;
      if (!choice) return;
      const count = choice.options.length;
      if (key.kind === 'escape' || (key.kind === 'ctrl' && key.key === 'c')) return core.setChoice(null);
      if (key.kind === 'up' && count > 0)
        return core.setChoice({ ...choice, selected: (choice.selected + count - 1) % count });
      if (key.kind === 'down' && count > 0)
        return core.setChoice({ ...choice, selected: (choice.selected + 1) % count });
      if (key.kind === 'submit') return choice.choose(choice.selected);
      if (key.kind !== 'text') return;
      const digit = Number(key.text);
      if (Number.isInteger(digit) && digit >= 1 && digit <= Math.min(count, 9)) choice.choose(digit - 1);
    },
    [core],
  );

  /** Esc Esc on an empty prompt (within this window) opens the rewind dialog. */
  const lastEscape = useRef<number | null>(null);
  /** Where an unbracketed paste began while its reads keep coming with no other key between (continuePaste). */
  const pasteRun = useRef<number | null>(null);
  /** Ctrl+R's reverse search while it is open (history-search.ts). */
  const [searchRef, setSearch] = useLatestState<HistorySearch | null>(() => null);

  /** A key while the reverse search is open: narrow, go older, take the entry, or give up. */
  const searchKey = useCallback(
    (key: KeyEvent, search: HistorySearch): void => {
      const history = inputRef.current.history;
      if (key.kind === 'ctrl' && key.key === 'r') return setSearch(olderMatch(history, search));
      if (key.kind === 'escape' || (key.kind === 'ctrl' && (key.key === 'g' || key.key === 'c'))) {
        return setSearch(null);
      }
      if (key.kind === 'text') return setSearch(withQuery(history, search.query + key.text.replace(/\n/g, ' ')));
      if (key.kind === 'backspace') return setSearch(withQuery(history, search.query.slice(0, -1)));
      // Enter, →, ←, Home, End or any other key: the entry goes into the input box to edit or send.
      setInput(acceptSearch(inputRef.current, search));
      setSearch(null);
    },
    [inputRef, setInput, setSearch],
  );
  const handleKey = useCallback(
    (key: KeyEvent) => {
      if (core.permissionRef.current) return permissionKey(key);
      if (core.pickerRef.current) return pickerKey(key);
      if (core.choiceRef.current) return choiceKey(key);
      if (core.rewind.rewindRef.current) {
        return core.rewind.key(key, (text) => setInput(edit.replaceText(inputRef.current, text)));
      }
      const search = searchRef.current;
      if (search) return searchKey(key, search);
      if (key.kind === 'ctrl' && key.key === 'r' && !core.busyRef.current) {
        return setSearch(startSearch(inputRef.current.history));
      }
      if (key.kind === 'ctrl' && key.key === 'c') return ctrlC();
      if (key.kind === 'ctrl' && key.key === 'l') return screen.clear();
      if (key.kind === 'ctrl' && key.key === 'o') return screen.toggleVerbose();
      // Ctrl+B: running Bash commands go on in the background (/tasks lists them).
      if (key.kind === 'ctrl' && key.key === 'b' && moveToBackground()) return;
      if (key.kind === 'backtab') return core.cycleMode();
      const busy = core.busyRef.current;
      if (key.kind === 'escape') {
        if (suggestions.dismiss()) return;
        if (busy && !core.dropQueued()) core.interrupt();
        if (!busy && !inputRef.current.text) {
          const previous = lastEscape.current;
          lastEscape.current = now();
          if (previous !== null && now() - previous <= DOUBLE_ESCAPE_MS) {
            lastEscape.current = null;
            core.rewind.open();
          }
        }
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
      if (key.kind === 'ctrl' && key.key === 'v') return pasteClipboard();
      const runStart = pasteRun.current;
      pasteRun.current = null;
      if (key.kind === 'text' && key.paste) {
        // A pasted image path attaches the image as [Image #N] (image-paste.ts); any other paste is text.
        const pasted = pastedImage(key.text, process.cwd());
        if (pasted.kind === 'image') return setInput(edit.insertImage(inputRef.current, pasted.image));
        if (pasted.kind === 'error') core.notice(pasted.message, 'warning');
        if (!key.bracketed) {
          pasteRun.current = runStart ?? inputRef.current.cursor;
          if (runStart !== null) return setInput(edit.continuePaste(inputRef.current, runStart, key.text));
        }
      }
      const next = editKey(inputRef.current, key, true);
      if (next) setInput(next);
    },
    [
      choiceKey,
      core,
      ctrlC,
      inputRef,
      now,
      pasteClipboard,
      permissionKey,
      pickerKey,
      screen,
      searchKey,
      searchRef,
      setInput,
      setSearch,
      submit,
      suggestions,
    ],
  );

  useRawKeys(handleKey);

  const search = searchRef.current;
  return {
    input,
    suggestions: suggestions.items,
    selectedSuggestion: suggestions.selected,
    exitHint,
    searchLine: search ? searchLine(input.history, search) : undefined,
  };
}
