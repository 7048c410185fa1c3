/**
 * Input history keeps the images a prompt was sent with, for recall with ↑ in the session: the recalled entry
 * sends them again, a placeholder whose image is not kept says so, the oldest entries' images are let go, and a
 * draft's image survives browsing the history and coming back with ↓.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES_WITH_IMAGES } from '../../src/ui/history-images.js';
import * as edit from '../../src/ui/input-state.js';
import type { ImagePart } from '../../src/text/image-part.js';

const image = (label: string): ImagePart => ({ type: 'image', mediaType: 'image/png', data: label, bytes: 1, label });

function send(state: edit.InputState, text: string, images: string[] = []): edit.InputState {
  let next = state;
  for (const label of images) next = edit.insertImage(next, image(label));
  next = edit.insertText(next, text);
  const result = edit.pressEnter(next);
  if (result.kind !== 'submit') throw new Error('expected a submit');
  return edit.afterSubmit(next, result.text);
}

const labels = (state: edit.InputState): string[] => edit.attachedImages(state).map((part) => part.label);

describe('images in input history', () => {
  it('↑ recalls a prompt with the images it was sent with', () => {
    let state = send(edit.emptyInput(), 'what is this', ['a', 'b']);
    state = send(state, 'plain');
    state = edit.historyPrev(edit.historyPrev(state));
    expect(state.text).toBe('[Image #1] [Image #2] what is this');
    expect(labels(state)).toEqual(['a', 'b']);
    // The next image pasted into the recalled prompt is numbered after them.
    expect(edit.insertImage(state, image('c')).text).toContain('[Image #3]');
    state = edit.historyNext(state);
    expect([state.text, labels(state)]).toEqual(['plain', []]);
  });

  it('an image deleted before sending is not kept for recall', () => {
    let state = edit.insertImage(edit.emptyInput(), image('a'));
    state = edit.insertText(edit.backspace(edit.backspace(state)), 'no picture after all');
    expect(labels(state)).toEqual([]);
    state = edit.afterSubmit(state, state.text);
    expect(state.historyImages.size).toBe(0);
    state = edit.historyPrev(state);
    expect([state.text, labels(state)]).toEqual(['no picture after all', []]);
  });

  it('history loaded from the file (no images kept) marks each placeholder', () => {
    const state = edit.historyPrev(edit.emptyInput(['[Image #1] [Image #2] old prompt']));
    expect(state.text).toBe('[Image #1 (no longer attached)] [Image #2 (no longer attached)] old prompt');
    expect(labels(state)).toEqual([]);
  });

  it(`keeps the images of the newest ${MAX_ENTRIES_WITH_IMAGES} entries only`, () => {
    let state = edit.emptyInput();
    for (let index = 0; index <= MAX_ENTRIES_WITH_IMAGES; index += 1) state = send(state, `p${index}`, [`i${index}`]);
    expect(state.historyImages.size).toBe(MAX_ENTRIES_WITH_IMAGES);
    let oldest = state;
    for (let index = 0; index <= MAX_ENTRIES_WITH_IMAGES; index += 1) oldest = edit.historyPrev(oldest);
    expect(oldest.text).toBe('[Image #1 (no longer attached)] p0');
    expect(labels(edit.historyPrev(state))).toEqual([`i${MAX_ENTRIES_WITH_IMAGES}`]);
  });

  it("a draft's image comes back with ↓ after browsing the history", () => {
    let state = send(edit.emptyInput(), 'earlier');
    state = edit.insertText(edit.insertImage(state, image('draft')), 'draft text');
    state = edit.historyNext(edit.historyPrev(state));
    expect(state.text).toBe('[Image #1] draft text');
    expect(labels(state)).toEqual(['draft']);
  });
});
