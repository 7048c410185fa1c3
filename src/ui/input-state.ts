/**
 * The pure editing model behind the input box: a text buffer with a cursor, multi-line editing,
 * history browsing and collapsed pastes. Every function returns a new state; nothing here renders.
 */
import type { ImagePart } from '../text/image-part.js';
import { recallEntry, rememberImages, type HistoryImages } from './history-images.js';

/**
 * A large paste shown in the buffer as a placeholder; the real text is what gets submitted. An image paste (a
 * pasted image path, Ctrl+V) keeps its `[Image #N]` placeholder in the text and sends `image` with it.
 */
export interface PastedBlock {
  placeholder: string;
  text: string;
  image?: ImagePart;
}

export interface InputState {
  text: string;
  /** Offset into `text` (UTF-16 units), 0..text.length. */
  cursor: number;
  /** Oldest first. */
  history: readonly string[];
  /** Index into history while browsing with ↑/↓; null when editing a fresh draft. */
  historyIndex: number | null;
  /** The draft saved when history browsing started, restored when ↓ walks past the newest entry. */
  draft: string;
  /** The draft's pastes (its attached images), restored with it. */
  draftPastes: readonly PastedBlock[];
  pastes: readonly PastedBlock[];
  /** Images of submitted entries, for recall with ↑ in this session (history-images.ts). */
  historyImages: HistoryImages<PastedBlock>;
}

export const HISTORY_CAP = 500;
/** Pastes with more lines than this are collapsed to a placeholder. */
export const PASTE_COLLAPSE_LINES = 10;

export function emptyInput(history: readonly string[] = []): InputState {
  return {
    text: '',
    cursor: 0,
    history,
    historyIndex: null,
    draft: '',
    draftPastes: [],
    pastes: [],
    historyImages: new Map(),
  };
}

function withText(state: InputState, text: string, cursor: number): InputState {
  return { ...state, text, cursor: Math.max(0, Math.min(cursor, text.length)) };
}

export function insertText(state: InputState, text: string): InputState {
  const next = state.text.slice(0, state.cursor) + text + state.text.slice(state.cursor);
  return withText(state, next, state.cursor + text.length);
}

export function insertNewline(state: InputState): InputState {
  return insertText(state, '\n');
}

function lineCount(text: string): number {
  return text.split('\n').length;
}

/** Inserts pasted text whole; over PASTE_COLLAPSE_LINES lines it shows as `[Pasted N lines]`. */
export function insertPaste(state: InputState, text: string): InputState {
  const lines = lineCount(text.replace(/\n$/, ''));
  if (lines <= PASTE_COLLAPSE_LINES) return insertText(state, text);
  const ordinal = state.pastes.length + 1;
  const placeholder = ordinal === 1 ? `[Pasted ${lines} lines]` : `[Pasted ${lines} lines #${ordinal}]`;
  const inserted = insertText(state, placeholder);
  return { ...inserted, pastes: [...state.pastes, { placeholder, text }] };
}

/**
 * The next read of a paste that came in several reads without bracketed-paste marks (the terminal splits a long
 * paste): what the run has inserted since `start` (placeholders expanded) and `text` become one paste, so a
 * 300-line paste shows as one `[Pasted 300 lines]`, not two.
 */
export function continuePaste(state: InputState, start: number, text: string): InputState {
  if (start > state.cursor) return insertPaste(state, text);
  const run = state.text.slice(start, state.cursor);
  const inRun = state.pastes.filter((paste) => !paste.image && run.includes(paste.placeholder));
  let earlier = run;
  for (const paste of inRun) earlier = earlier.split(paste.placeholder).join(paste.text);
  const rest = state.pastes.filter((paste) => !inRun.includes(paste));
  const without = withText(
    { ...state, pastes: rest },
    state.text.slice(0, start) + state.text.slice(state.cursor),
    start,
  );
  return insertPaste(without, earlier + text);
}

/** The text to send: placeholders replaced by the pasted text they stand for (an image's stays as it is). */
export function expandedText(state: InputState): string {
  let text = state.text;
  for (const paste of state.pastes) if (!paste.image) text = text.split(paste.placeholder).join(paste.text);
  return text;
}

/** Inserts an attached image as `[Image #N] ` (numbered in the order attached while this input is edited). */
export function insertImage(state: InputState, image: ImagePart): InputState {
  const ordinal = state.pastes.filter((paste) => paste.image).length + 1;
  const placeholder = `[Image #${ordinal}]`;
  const inserted = insertText(state, `${placeholder} `);
  return { ...inserted, pastes: [...state.pastes, { placeholder, text: placeholder, image }] };
}

/** The images whose placeholders are still in the input (one deleted with Backspace is not sent). */
export function attachedImages(state: InputState): ImagePart[] {
  return state.pastes.flatMap((paste) => (paste.image && state.text.includes(paste.placeholder) ? [paste.image] : []));
}

export function backspace(state: InputState): InputState {
  if (state.cursor === 0) return state;
  const paste = state.pastes.find((p) => state.text.slice(0, state.cursor).endsWith(p.placeholder));
  const width = paste ? paste.placeholder.length : 1;
  const text = state.text.slice(0, state.cursor - width) + state.text.slice(state.cursor);
  return withText(state, text, state.cursor - width);
}

export function deleteForward(state: InputState): InputState {
  if (state.cursor >= state.text.length) return state;
  const text = state.text.slice(0, state.cursor) + state.text.slice(state.cursor + 1);
  return withText(state, text, state.cursor);
}

export function moveLeft(state: InputState): InputState {
  return withText(state, state.text, state.cursor - 1);
}

export function moveRight(state: InputState): InputState {
  return withText(state, state.text, state.cursor + 1);
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end === -1 ? text.length : end;
}

/** Home/Ctrl-A: start of the current line. */
export function moveHome(state: InputState): InputState {
  return withText(state, state.text, lineStart(state.text, state.cursor));
}

/** End/Ctrl-E: end of the current line. */
export function moveEnd(state: InputState): InputState {
  return withText(state, state.text, lineEnd(state.text, state.cursor));
}

export function cursorPosition(state: InputState): { line: number; column: number } {
  const before = state.text.slice(0, state.cursor).split('\n');
  return { line: before.length - 1, column: (before.at(-1) ?? '').length };
}

function moveVertical(state: InputState, delta: -1 | 1): InputState | null {
  const lines = state.text.split('\n');
  const { line, column } = cursorPosition(state);
  const target = line + delta;
  if (target < 0 || target >= lines.length) return null;
  let offset = 0;
  for (let index = 0; index < target; index++) offset += (lines[index] ?? '').length + 1;
  return withText(state, state.text, offset + Math.min(column, (lines[target] ?? '').length));
}

function showHistoryEntry(state: InputState, index: number): InputState {
  const { text, pastes } = recallEntry(state.historyImages, state.history[index] ?? '');
  return { ...state, text, cursor: text.length, historyIndex: index, pastes };
}

export function historyPrev(state: InputState): InputState {
  if (state.history.length === 0) return state;
  if (state.historyIndex === null) {
    return { ...showHistoryEntry(state, state.history.length - 1), draft: state.text, draftPastes: state.pastes };
  }
  return showHistoryEntry(state, Math.max(0, state.historyIndex - 1));
}

export function historyNext(state: InputState): InputState {
  if (state.historyIndex === null) return state;
  const index = state.historyIndex + 1;
  if (index >= state.history.length) {
    const restored = { text: state.draft, cursor: state.draft.length, pastes: state.draftPastes };
    return { ...state, ...restored, historyIndex: null, draft: '', draftPastes: [] };
  }
  return showHistoryEntry(state, index);
}

/** ↑: up a line inside a multi-line buffer, else the previous history entry. */
export function moveUp(state: InputState): InputState {
  return moveVertical(state, -1) ?? historyPrev(state);
}

/** ↓: down a line inside a multi-line buffer, else the next history entry. */
export function moveDown(state: InputState): InputState {
  return moveVertical(state, 1) ?? historyNext(state);
}

/** Ctrl-U: delete from the start of the line to the cursor. */
export function killToLineStart(state: InputState): InputState {
  const start = lineStart(state.text, state.cursor);
  return withText(state, state.text.slice(0, start) + state.text.slice(state.cursor), start);
}

/** Ctrl-K: delete from the cursor to the end of the line. */
export function killToLineEnd(state: InputState): InputState {
  const end = lineEnd(state.text, state.cursor);
  return withText(state, state.text.slice(0, state.cursor) + state.text.slice(end), state.cursor);
}

/** Ctrl-W: delete the word before the cursor (and the spaces after it). */
export function deleteWordBack(state: InputState): InputState {
  const before = state.text.slice(0, state.cursor);
  const start = before.replace(/\S+\s*$|\s+$/, '').length;
  return withText(state, state.text.slice(0, start) + state.text.slice(state.cursor), start);
}

export function clearInput(state: InputState): InputState {
  return { ...state, text: '', cursor: 0, historyIndex: null, draft: '', draftPastes: [], pastes: [] };
}

export function replaceText(state: InputState, text: string, cursor = text.length): InputState {
  return withText({ ...state, historyIndex: null }, text, cursor);
}

export type EnterResult = { kind: 'submit'; text: string } | { kind: 'edit'; state: InputState };

/** Enter: a `\` right before the cursor becomes a newline (line continuation); otherwise submit. */
export function pressEnter(state: InputState): EnterResult {
  if (state.cursor > 0 && state.text[state.cursor - 1] === '\\') {
    const text = state.text.slice(0, state.cursor - 1) + '\n' + state.text.slice(state.cursor);
    return { kind: 'edit', state: withText(state, text, state.cursor) };
  }
  return { kind: 'submit', text: expandedText(state) };
}

/** Appends a submitted entry: skips blanks and a repeat of the newest entry, keeps the newest `cap`. */
export function pushHistory(history: readonly string[], entry: string, cap = HISTORY_CAP): string[] {
  if (!entry.trim() || history.at(-1) === entry) return [...history];
  return [...history, entry].slice(-cap);
}

/** After a submit: empty buffer, history extended, the entry's attached images kept for recall. */
export function afterSubmit(state: InputState, submitted: string): InputState {
  const historyImages = submitted.trim()
    ? rememberImages(state.historyImages, submitted, state.pastes)
    : state.historyImages;
  return { ...emptyInput(pushHistory(state.history, submitted)), historyImages };
}
