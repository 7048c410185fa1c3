/**
 * The suggestion list under the input box: `/commands` while a command name is typed, project paths for the `@`
 * mention under the cursor. ↑/↓ move through it; Tab takes the highlighted entry, else completes the common prefix,
 * else highlights the first; Enter takes the highlighted entry (a command without arguments runs at once); Esc
 * drops the highlight.
 */
import type { CustomCommandInfo } from '../driver/custom-commands-port.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { KeyEvent } from './keys.js';
import * as edit from './input-state.js';
import type { InputState } from './input-state.js';
import { applyCompletion, commonPrefix, extendToCommonPrefix, findMentionAtCursor } from './path-completion.js';
import { suggestSlashCommands } from './slash-commands.js';
import { useLatestState } from './use-raw-keys.js';

export interface SuggestionItem {
  label: string;
  description?: string;
}

interface Options {
  input: InputState;
  inputRef: { readonly current: InputState };
  setInput: (next: InputState) => void;
  completePath: (prefix: string) => Promise<string[]>;
  customCommands: readonly CustomCommandInfo[];
}

export function useSuggestions({ input, inputRef, setInput, completePath, customCommands }: Options) {
  const [paths, setPaths] = useState<string[]>([]);
  // Mirrored in a ref: several keys of one chunk (↓ ↓ Enter) are handled before React renders again.
  const [selectedRef, setSelected] = useLatestState<number | null>(() => null);
  const selected = selectedRef.current;
  const completionSeq = useRef(0);

  // Live @path suggestions for the mention under the cursor; any edit drops the highlight.
  useEffect(() => {
    setSelected(null);
    const token = findMentionAtCursor(input.text, input.cursor);
    const seq = ++completionSeq.current;
    if (!token) {
      setPaths([]);
      return;
    }
    completePath(token.prefix).then(
      (found) => {
        if (seq === completionSeq.current) setPaths(found);
      },
      () => setPaths([]),
    );
  }, [input.text, input.cursor, completePath]);

  const commands = suggestSlashCommands(input.text, customCommands);
  const items: SuggestionItem[] =
    commands.length > 0
      ? commands.map((command) => ({
          label: neutralizeControlSequences(command.usage),
          description: neutralizeControlSequences(command.description),
        }))
      : paths.map((path) => ({ label: `@${neutralizeControlSequences(path)}` }));

  /** Puts entry `index` into the input; for a command, returns the line to run when it takes no argument. */
  const take = useCallback(
    (index: number): string | undefined => {
      const state = inputRef.current;
      const command = suggestSlashCommands(state.text, customCommands)[index];
      if (command) {
        const runsAlone = !/[[<]/.test(command.usage);
        setInput(edit.replaceText(state, runsAlone ? `/${command.name}` : `/${command.name} `));
        return runsAlone ? `/${command.name}` : undefined;
      }
      const token = findMentionAtCursor(state.text, state.cursor);
      const path = paths[index];
      if (token && path !== undefined) {
        const next = applyCompletion(state.text, token, path);
        setInput(edit.replaceText(state, next.text, next.cursor));
      }
      return undefined;
    },
    [inputRef, paths, setInput, customCommands],
  );

  /** Tab: the highlighted entry, else the common prefix if it adds something, else highlight the first. */
  const tab = useCallback(() => {
    const state = inputRef.current;
    const found = suggestSlashCommands(state.text, customCommands);
    if (selectedRef.current !== null) return void take(selectedRef.current);
    if (found.length > 0) {
      if (found.length === 1) return void take(0);
      const shared = commonPrefix(found.map((command) => command.name));
      if (shared.length > state.text.length - 1) return setInput(edit.replaceText(state, `/${shared}`));
      return setSelected(0);
    }
    const token = findMentionAtCursor(state.text, state.cursor);
    if (!token) return;
    // Asked afresh: the list on screen may still be for the text before the last keystroke.
    completePath(token.prefix).then(
      (fresh) => {
        const current = inputRef.current;
        if (current.text !== state.text || current.cursor !== state.cursor || fresh.length === 0) return;
        setPaths(fresh);
        const only = fresh.length === 1 ? fresh[0] : undefined;
        const next =
          only !== undefined
            ? applyCompletion(current.text, token, only)
            : extendToCommonPrefix(current.text, token, fresh);
        if (next && next.text !== current.text) return setInput(edit.replaceText(current, next.text, next.cursor));
        setSelected(0);
      },
      () => undefined,
    );
  }, [completePath, inputRef, setInput, take]);

  /** Handles ↑/↓/Tab/Enter when a list is open; returns false for keys it leaves to the editor. */
  const handle = useCallback(
    (key: KeyEvent, submit: () => void): boolean => {
      const count = items.length;
      if (key.kind === 'tab') {
        tab();
        return true;
      }
      if (count === 0) return false;
      const current = selectedRef.current;
      if (key.kind === 'down') {
        setSelected(current === null ? 0 : (current + 1) % count);
        return true;
      }
      if (key.kind === 'up') {
        setSelected(current === null ? count - 1 : (current + count - 1) % count);
        return true;
      }
      if (key.kind === 'submit' && current !== null) {
        const run = take(current);
        setSelected(null);
        if (run !== undefined) submit();
        return true;
      }
      return false;
    },
    [items.length, tab, take],
  );

  /** Esc: drops the highlight; true when there was one. */
  const dismiss = useCallback((): boolean => {
    if (selectedRef.current === null) return false;
    setSelected(null);
    return true;
  }, []);

  return { items, selected, handle, dismiss };
}
