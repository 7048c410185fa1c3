import { describe, expect, it } from 'vitest';
import * as edit from '../../src/ui/input-state.js';

function typed(text: string, history: string[] = []): edit.InputState {
  return edit.insertText(edit.emptyInput(history), text);
}

describe('input-state editing', () => {
  it('inserts at the cursor and moves left/right within bounds', () => {
    let state = typed('helo');
    state = edit.moveLeft(state);
    state = edit.insertText(state, 'l');
    expect(state.text).toBe('hello');
    expect(state.cursor).toBe(4);
    state = edit.moveRight(edit.moveRight(edit.moveRight(state)));
    expect(state.cursor).toBe(5);
    for (let index = 0; index < 10; index++) state = edit.moveLeft(state);
    expect(state.cursor).toBe(0);
  });

  it('backspace deletes before the cursor, delete after it', () => {
    let state = edit.moveLeft(typed('abc'));
    state = edit.backspace(state);
    expect(state.text).toBe('ac');
    expect(state.cursor).toBe(1);
    state = edit.deleteForward(state);
    expect(state.text).toBe('a');
    expect(edit.backspace(edit.moveHome(state)).text).toBe('a');
  });

  it('home and end act on the current line of a multi-line buffer', () => {
    let state = edit.insertText(edit.insertNewline(typed('first')), 'second');
    state = edit.moveHome(state);
    expect(edit.cursorPosition(state)).toEqual({ line: 1, column: 0 });
    state = edit.moveEnd(edit.moveUp(state));
    expect(edit.cursorPosition(state)).toEqual({ line: 0, column: 5 });
  });

  it('up and down move between lines before touching history', () => {
    let state = edit.insertText(edit.insertNewline(typed('ab', ['old'])), 'cdef');
    state = edit.moveUp(state);
    expect(edit.cursorPosition(state)).toEqual({ line: 0, column: 2 });
    expect(state.text).toBe('ab\ncdef');
    state = edit.moveUp(state);
    expect(state.text).toBe('old');
    state = edit.moveDown(state);
    expect(state.text).toBe('ab\ncdef');
  });

  it('a backslash before Enter becomes a newline; otherwise Enter submits', () => {
    const continued = edit.pressEnter(typed('line one\\'));
    expect(continued.kind).toBe('edit');
    if (continued.kind !== 'edit') return;
    expect(continued.state.text).toBe('line one\n');
    const submitted = edit.pressEnter(edit.insertText(continued.state, 'line two'));
    expect(submitted).toEqual({ kind: 'submit', text: 'line one\nline two' });
  });

  it('kills to line start/end and deletes the previous word', () => {
    const state = edit.moveLeft(edit.moveLeft(typed('git commit -m')));
    expect(edit.killToLineStart(state).text).toBe('-m');
    expect(edit.killToLineEnd(state).text).toBe('git commit ');
    expect(edit.deleteWordBack(typed('git commit ')).text).toBe('git ');
  });
});

describe('input-state history', () => {
  it('walks back and forth and restores the draft', () => {
    let state = typed('draft', ['one', 'two']);
    state = edit.historyPrev(state);
    expect(state.text).toBe('two');
    state = edit.historyPrev(state);
    expect(state.text).toBe('one');
    state = edit.historyPrev(state);
    expect(state.text).toBe('one');
    state = edit.historyNext(edit.historyNext(state));
    expect(state.text).toBe('draft');
    expect(state.historyIndex).toBeNull();
  });

  it('pushHistory skips blanks and consecutive duplicates and caps the length', () => {
    expect(edit.pushHistory(['a'], 'a')).toEqual(['a']);
    expect(edit.pushHistory(['a'], '  ')).toEqual(['a']);
    expect(edit.pushHistory(['a', 'b'], 'a')).toEqual(['a', 'b', 'a']);
    const many = Array.from({ length: 10 }, (_, index) => `e${index}`);
    expect(edit.pushHistory(many, 'new', 5)).toEqual(['e6', 'e7', 'e8', 'e9', 'new']);
  });

  it('afterSubmit empties the buffer and records the entry', () => {
    const state = edit.afterSubmit(typed('hi', ['x']), 'hi');
    expect(state.text).toBe('');
    expect(state.history).toEqual(['x', 'hi']);
  });
});

describe('input-state pastes', () => {
  it('inserts short pastes verbatim', () => {
    const state = edit.insertPaste(edit.emptyInput(), 'a\nb\nc');
    expect(state.text).toBe('a\nb\nc');
    expect(state.pastes).toHaveLength(0);
  });

  it('collapses a long paste to a placeholder but submits the real text', () => {
    const pasted = Array.from({ length: 30 }, (_, index) => `line ${index}`).join('\n');
    let state = edit.insertPaste(typed('see: '), pasted);
    expect(state.text).toBe('see: [Pasted 30 lines]');
    state = edit.insertText(state, ' thanks');
    expect(edit.pressEnter(state)).toEqual({ kind: 'submit', text: `see: ${pasted} thanks` });
  });

  it('backspace removes a whole placeholder', () => {
    const pasted = Array.from({ length: 12 }, () => 'x').join('\n');
    const state = edit.backspace(edit.insertPaste(typed('a '), pasted));
    expect(state.text).toBe('a ');
  });
});
