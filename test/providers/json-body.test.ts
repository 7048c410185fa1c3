/**
 * The request body encoder (issue 42): whatever it reuses from earlier requests, the bytes it sends are exactly
 * `Buffer.from(JSON.stringify(body))`; and it holds no more than the long strings of the last request.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBodyEncoder } from '../../src/providers/json-body.js';

const RUNS = Number(process.env.MCA_FUZZ_RUNS ?? 200);

/** Texts long enough to be reused, with quotes, escapes, astral and lone surrogate characters. */
const longText = fc
  .tuple(fc.string({ unit: 'grapheme', minLength: 0, maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }))
  .map(([a, b]) => `${a}"\\\n\t\u0001📌\ud800${b}`.repeat(40));

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    longText,
    fc.integer(),
    fc.double({ noNaN: false }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('JsonBodyEncoder', () => {
  it('sends exactly the bytes of JSON.stringify, request after request', () => {
    fc.assert(
      fc.property(fc.array(jsonValue, { minLength: 1, maxLength: 6 }), (bodies) => {
        const encoder = new JsonBodyEncoder();
        // Each body carries the ones before it (as a session's requests carry its history), and once more itself.
        const sent: unknown[] = [];
        for (const body of bodies) {
          sent.push(body);
          const request = { model: 'm', messages: [...sent], again: body, stream: true };
          expect(encoder.encode(request).equals(Buffer.from(JSON.stringify(request), 'utf8'))).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('sends exactly the bytes of JSON.stringify when elements are replaced, inserted or removed anywhere', () => {
    const edit = fc.tuple(fc.constantFrom('replace', 'insert', 'remove'), fc.nat(), jsonValue);
    fc.assert(
      fc.property(
        fc.array(jsonValue, { maxLength: 6 }),
        fc.array(edit, { minLength: 1, maxLength: 8 }),
        (start, edits) => {
          const encoder = new JsonBodyEncoder();
          let messages = [...start];
          for (const [kind, at, value] of edits) {
            const index = messages.length === 0 ? 0 : at % messages.length;
            messages = [...messages];
            if (kind === 'insert') messages.splice(index, 0, value);
            else if (kind === 'remove') messages.splice(index, 1);
            else messages[index] = value;
            const request = { model: 'm', system: messages.slice(0, 2), messages, stream: true };
            expect(encoder.encode(request).equals(Buffer.from(JSON.stringify(request), 'utf8'))).toBe(true);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('reuses what the previous request carried, and holds no more than the last request', () => {
    const encoder = new JsonBodyEncoder();
    const history = 'x'.repeat(5_000);
    const call = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } };
    const body = (tail: string) => ({
      model: 'm',
      messages: [{ role: 'user', content: history }, { role: 'assistant', content: [call] }, tail],
    });
    for (const tail of ['new', 'newer', 'newest']) {
      expect(encoder.encode(body(tail)).toString()).toBe(JSON.stringify(body(tail)));
    }
    const held = encoder as unknown as {
      previousLists: Map<string, { entries: Array<{ value: unknown }> }>;
      previous: Map<string, unknown>;
    };
    expect(held.previousLists.get('messages')?.entries.map((entry) => entry.value)).toEqual(body('newest').messages);
    // A changed element is encoded anew, in place.
    const changed = {
      model: 'm',
      messages: [
        { role: 'user', content: `${history}!` },
        { role: 'assistant', content: [call] },
      ],
    };
    expect(encoder.encode(changed).toString()).toBe(JSON.stringify(changed));
    encoder.encode({ messages: ['short'] });
    expect([...held.previousLists.keys()]).toEqual(['messages']);
    expect(held.previousLists.get('messages')?.entries).toHaveLength(1);
    expect(held.previous.size).toBe(0);
  });
});
