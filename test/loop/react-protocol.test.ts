/**
 * The text-protocol parser against a corpus of realistic replies (Markdown answers with "Action" in bullets and
 * code blocks, nested brackets, raw newlines in JSON, two actions, text after the action, replies cut at the
 * output limit), each with its expected parse, and a property: any answer text survives `Finish[…]` verbatim.
 */
import fc from 'fast-check';
import { jsonrepair } from 'jsonrepair';
import { describe, expect, it } from 'vitest';
import { MAX_ACTION_DEPTH } from '../../src/loop/action-json.js';
import type { ParsedReply } from '../../src/loop/react-protocol.js';
import { actionKey, formatAction, parseReply, parseReplyRepairing } from '../../src/loop/react-protocol.js';

type Expected =
  | { kind: 'action'; tool: string; input: Record<string, unknown>; exact?: boolean; thought?: string }
  | { kind: 'finish'; answer: string; closed?: boolean }
  | { kind: 'answer'; answer: string; narration: boolean }
  | { kind: 'invalid'; reason: RegExp };

const act = (tool: string, input: Record<string, unknown>, extra: { exact?: boolean; thought?: string } = {}) =>
  ({ kind: 'action', tool, input, ...extra }) as const;
const fin = (answer: string, closed = true) => ({ kind: 'finish', answer, closed }) as const;
const ans = (answer: string, narration = false) => ({ kind: 'answer', answer, narration }) as const;
const bad = (reason: RegExp) => ({ kind: 'invalid', reason }) as const;

const DEEP = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;

const CORPUS: Array<[string, string, Expected]> = [
  // Plain tool calls
  [
    'thought and action',
    'Thought: I need the file.\nAction: Read[{"path": "src/a.ts", "limit": 20}]',
    act('Read', { path: 'src/a.ts', limit: 20 }, { exact: true, thought: 'I need the file.' }),
  ],
  ['action without thought', 'Action: LS[{"path": "."}]', act('LS', { path: '.' }, { exact: true })],
  ['empty brackets', 'Action: LS[]', act('LS', {}, { exact: true })],
  ['empty object', 'Action: LS[{}]', act('LS', {}, { exact: true })],
  ['bold label', '**Action:** Read[{"path": "a"}]', act('Read', { path: 'a' }, { exact: true })],
  ['bold label, colon outside', '**Action**: Read[{"path": "a"}]', act('Read', { path: 'a' }, { exact: true })],
  ['space before the colon', 'Action : Read[{"path": "a"}]', act('Read', { path: 'a' }, { exact: true })],
  [
    'bold thought label',
    '**Thought:** look\n**Action:** Glob[{"pattern": "*.ts"}]',
    act('Glob', { pattern: '*.ts' }, { thought: 'look' }),
  ],
  ['indented label', '  Action: Read[{"path": "a"}]', act('Read', { path: 'a' })],
  ['parentheses', 'Action: Read({"path": "a"})', act('Read', { path: 'a' }, { exact: true })],
  ['object without brackets', 'Action: Read {"path": "a"}', act('Read', { path: 'a' }, { exact: true })],
  ['fenced json', 'Action: Read[```json\n{"path": "a"}\n```]', act('Read', { path: 'a' }, { exact: true })],
  ['fenced json without brackets', 'Action: Read\n```json\n{"path": "a"}\n```', act('Read', { path: 'a' })],
  ['space between name and bracket', 'Action: Read [{"path": "a"}]', act('Read', { path: 'a' }, { exact: true })],
  [
    'multi-line pretty JSON',
    'Thought: edit\nAction: Edit[{\n  "path": "a.ts",\n  "old_string": "x",\n  "new_string": "y"\n}]',
    act('Edit', { path: 'a.ts', old_string: 'x', new_string: 'y' }, { exact: true }),
  ],
  [
    'tool_call tags',
    '<tool_call>Thought: x\nAction: LS[{"path": "."}]</tool_call>',
    act('LS', { path: '.' }, { thought: 'x' }),
  ],
  [
    'multi-line thought',
    'Thought: first I check\nthe tests, then\nthe code.\nAction: Bash[{"command": "npm test"}]',
    act('Bash', { command: 'npm test' }, { thought: 'first I check\nthe tests, then\nthe code.' }),
  ],
  [
    'unicode in values',
    'Action: Write[{"path": "ü.txt", "content": "héllo → 世界 🎉"}]',
    act('Write', { path: 'ü.txt', content: 'héllo → 世界 🎉' }, { exact: true }),
  ],
  // Brackets inside strings
  [
    'brackets in JSON strings',
    'Action: Edit[{"path": "a.ts", "old_string": "x[0]", "new_string": "x[1]]"}]',
    act('Edit', { path: 'a.ts', old_string: 'x[0]', new_string: 'x[1]]' }, { exact: true }),
  ],
  [
    'braces in JSON strings',
    'Action: Write[{"path": "a.js", "content": "function f() { return {a: [1]}; }"}]',
    act('Write', { path: 'a.js', content: 'function f() { return {a: [1]}; }' }, { exact: true }),
  ],
  [
    'escaped quotes',
    'Action: Bash[{"command": "echo \\"hi ]\\""}]',
    act('Bash', { command: 'echo "hi ]"' }, { exact: true }),
  ],
  [
    'nested arrays',
    'Action: TodoWrite[{"todos": [{"content": "a [x]", "status": "pending"}]}]',
    act('TodoWrite', { todos: [{ content: 'a [x]', status: 'pending' }] }, { exact: true }),
  ],
  [
    'MultiEdit with nested edits',
    'Action: MultiEdit[{"path": "a", "edits": [{"old_string": "]", "new_string": "["}]}]',
    act('MultiEdit', { path: 'a', edits: [{ old_string: ']', new_string: '[' }] }, { exact: true }),
  ],
  // Two actions and text after the action
  [
    'two actions: the first decides',
    'Thought: a\nAction: LS[{}]\nThought: no, better\nAction: Glob[{"pattern": "*.ts"}]',
    act('LS', {}, { thought: 'a' }),
  ],
  [
    'two actions on following lines',
    'Action: Read[{"path": "a"}]\nAction: Read[{"path": "b"}]',
    act('Read', { path: 'a' }, { exact: true }),
  ],
  [
    'text after the action',
    'Action: Read[{"path": "a"}] and then I will look at b[0]',
    act('Read', { path: 'a' }, { exact: true }),
  ],
  [
    'prose line after the action',
    'Action: Bash[{"command": "ls"}]\nI will wait for the output [then decide].',
    act('Bash', { command: 'ls' }, { exact: true }),
  ],
  [
    'invented observation is cut',
    'Action: LS[{"path": "."}]\nObservation: a.ts b.ts\nAction: Finish[done]',
    act('LS', { path: '.' }, { exact: true }),
  ],
  ['finish after a tool action', 'Action: Read[{"path": "a"}]\nAction: Finish[done]', act('Read', { path: 'a' })],
  // Repaired JSON
  [
    'raw newline in a string',
    'Action: Write[{"path": "a.txt", "content": "line1\nline2"}]',
    act('Write', { path: 'a.txt', content: 'line1\nline2' }, { exact: false }),
  ],
  [
    'raw tab in a string',
    'Action: Write[{"path": "a.txt", "content": "a\tb"}]',
    act('Write', { path: 'a.txt', content: 'a\tb' }, { exact: false }),
  ],
  ['trailing comma', 'Action: Read[{"path": "a",}]', act('Read', { path: 'a' }, { exact: false })],
  ['single quotes', "Action: Read[{'path': 'a'}]", act('Read', { path: 'a' }, { exact: false })],
  ['unquoted keys', 'Action: Read[{path: "a"}]', act('Read', { path: 'a' }, { exact: false })],
  [
    'unescaped inner quotes',
    'Action: Bash[{"command": "echo "hi""}]',
    act('Bash', { command: 'echo "hi"' }, { exact: false }),
  ],
  ['a missing closing brace', 'Action: Read[{"path": "a"]', act('Read', { path: 'a' }, { exact: false })],
  ['a missing closing bracket', 'Action: Read[{"path": "a"}', act('Read', { path: 'a' }, { exact: false })],
  [
    'python literals',
    'Action: Grep[{"pattern": "x", "case_sensitive": True}]',
    act('Grep', { pattern: 'x', case_sensitive: true }, { exact: false }),
  ],
  // Finish answers, verbatim
  ['finish', 'Thought: done\nAction: Finish[All tests pass.]', fin('All tests pass.')],
  [
    'finish with brackets and newlines',
    'Thought: done\nAction: Finish[Use `arr[0]` here.\nSecond line.]',
    fin('Use `arr[0]` here.\nSecond line.'),
  ],
  [
    'finish with markdown bullets naming Action',
    'Thought: done\nAction: Finish[Next steps:\n- **Action:** run the tests again\n- Action: rename it]',
    fin('Next steps:\n- **Action:** run the tests again\n- Action: rename it'),
  ],
  [
    'finish with a line starting with Action:',
    'Action: Finish[I fixed it.\nAction: rename it\nThat is all.]',
    fin('I fixed it.\nAction: rename it\nThat is all.'),
  ],
  [
    'finish quoting a Bash action is never run',
    'Thought: explain\nAction: Finish[To deploy, the agent would write:\nAction: Bash[{"command": "rm -rf /"}]\nbut I did not.]',
    fin('To deploy, the agent would write:\nAction: Bash[{"command": "rm -rf /"}]\nbut I did not.'),
  ],
  [
    'finish with a code block',
    'Action: Finish[Run:\n```sh\nnpm test -- --grep "a[b]"\n```]',
    fin('Run:\n```sh\nnpm test -- --grep "a[b]"\n```'),
  ],
  ['finish with json inside', 'Action: Finish[{"result": [1, 2]}]', fin('{"result": [1, 2]}')],
  ['finish keeps surrounding spaces', 'Action: Finish[  spaced  ]', fin('  spaced  ')],
  ['finish, empty', 'Action: Finish[]', fin('')],
  ['finish lowercase', 'Action: finish[ok]', fin('ok')],
  ['bold finish', '**Action:** Finish[done]', fin('done')],
  ['finish in parentheses', 'Action: Finish(done)', fin('done')],
  ['finish never closed', 'Action: Finish[The answer runs to the end', fin('The answer runs to the end', false)],
  ['finish with text after the bracket', 'Action: Finish[done] ', fin('done')],
  [
    'finish with a colon instead of brackets',
    'Thought: done\nAction: Finish: The answer is 42.',
    fin('The answer is 42.', false),
  ],
  [
    'finish label, answer on the next lines',
    'Action: Finish\nAll tests pass.\nNo changes needed.',
    fin('All tests pass.\nNo changes needed.', false),
  ],
  [
    'prose that starts with "Action: Finish"',
    'Plan:\nAction: Finish the migration next week.',
    ans('Plan:\nAction: Finish the migration next week.'),
  ],
  // Answers and narration
  ['plain answer', 'The answer is 42.', ans('The answer is 42.')],
  [
    'markdown answer with Action bullets',
    '## Summary\n\n- **Action:** run the tests again\n- Action: rename it\n\nDone.',
    ans('## Summary\n\n- **Action:** run the tests again\n- Action: rename it\n\nDone.'),
  ],
  [
    'answer with an Action label followed by prose',
    'I suggest:\nAction: rename it to fooBar.',
    ans('I suggest:\nAction: rename it to fooBar.'),
  ],
  ['Action: not at a line start', 'The next Action: is up to you.', ans('The next Action: is up to you.')],
  ['code block answer', 'Here:\n```ts\nconst Action = 1;\n```', ans('Here:\n```ts\nconst Action = 1;\n```')],
  ['thought only narrates', 'Thought: I will now read the config…', ans('I will now read the config…', true)],
  ['bold thought only', '**Thought:** Let me check the tests.', ans('Let me check the tests.', true)],
  ['thought followed by prose action', 'Thought: next\nAction: rename it', ans('next\nAction: rename it', true)],
  ['empty reply', '', ans('')],
  // Invalid actions (each tells the model what was wrong)
  ['no tool name', 'Action: [{"a":1}]', bad(/no tool name/)],
  ['array input', 'Action: Read[[1,2]]', bad(/must be a JSON object/)],
  ['string input', 'Action: Read["src/a.ts"]', bad(/must be a JSON object/)],
  ['not JSON at all', 'Action: Read["path" "a.ts" ]', bad(/not valid JSON/)],
  ['name then nothing', 'Thought: go\nAction: Read', bad(/no argument/)],
  [
    'cut mid-JSON (max_tokens)',
    'Thought: write it\nAction: Write[{"path": "big.txt", "content": "aaaa',
    bad(/never closed/),
  ],
  ['cut mid-string with brackets before', 'Action: Write[{"path": "a.ts", "content": "x = [1, 2', bad(/never closed/)],
  ['cut right after the name', 'Action: Write[', bad(/never closed/)],
  ['10,000-deep arrays', `Action: Bash[${DEEP}]`, bad(new RegExp(`nested more than ${MAX_ACTION_DEPTH} levels`))],
  [
    '5,000-deep objects',
    `Action: Bash[${DEEP_OBJECT}]`,
    bad(new RegExp(`nested more than ${MAX_ACTION_DEPTH} levels`)),
  ],
];

function summarize(parsed: ParsedReply): Record<string, unknown> {
  switch (parsed.kind) {
    case 'action':
      return {
        kind: 'action',
        tool: parsed.action.tool,
        input: parsed.action.input,
        exact: parsed.exact,
        thought: parsed.thought,
      };
    case 'finish':
      return { kind: 'finish', answer: parsed.answer, closed: parsed.closed };
    case 'answer':
      return { kind: 'answer', answer: parsed.answer, narration: parsed.narration };
    case 'invalid':
      return { kind: 'invalid', reason: parsed.reason };
  }
}

describe('parseReply corpus', () => {
  it('has at least 60 realistic replies', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(CORPUS)('%s', (_name, reply, expected) => {
    const parsed = summarize(parseReply(reply, jsonrepair));
    if (expected.kind === 'invalid') {
      expect(parsed.kind).toBe('invalid');
      expect(parsed.reason).toMatch(expected.reason);
    } else {
      expect(parsed).toMatchObject(expected);
    }
  });

  it('repairs only on request: without a repairer broken JSON is invalid but repairable; the async parse repairs', async () => {
    let repairable = 0;
    for (const [name, reply] of CORPUS) {
      const repaired = parseReply(reply, jsonrepair);
      const plain = parseReply(reply);
      expect(repaired, name).not.toHaveProperty('repairable');
      if (plain.kind === 'invalid' && plain.repairable) repairable += 1;
      else expect(plain, name).toEqual(repaired);
      expect(await parseReplyRepairing(reply), name).toEqual(repaired);
    }
    expect(repairable).toBeGreaterThan(2);
  });

  it('stores an action up to its closing bracket, without text after it', () => {
    const parsed = parseReply('Thought: t\nAction: Read[{"path": "a"}]\nAction: Bash[{"command": "x"}]');
    expect(parsed.text).toBe('Thought: t\nAction: Read[{"path": "a"}]');
  });
});

describe('Finish property', () => {
  it('any answer text comes back verbatim from Finish[…] and is never an action', () => {
    // The model cannot write the stop sequence "\nObservation:" (the API stops there), so no answer contains it.
    const answer = fc.string({ unit: 'grapheme', maxLength: 300 }).filter((text) => !text.includes('\nObservation:'));
    const thought = fc.constantFrom('', 'Thought: done\n', '**Thought:** ok\n');
    const label = fc.constantFrom('Action: ', '**Action:** ', 'Action : ');
    fc.assert(
      fc.property(answer, thought, label, (text, before, action) => {
        const parsed = parseReply(`${before}${action}Finish[${text}]`);
        expect(parsed.kind).toBe('finish');
        if (parsed.kind === 'finish') expect(parsed.answer).toBe(text);
      }),
      { numRuns: Number(process.env.MCA_FUZZ_RUNS ?? 500) },
    );
  });

  it('answers built from protocol-like fragments still come back verbatim', () => {
    const fragment = fc.constantFrom(
      'Action: Bash[{"command": "rm -rf /"}]',
      '- **Action:** run',
      ']',
      '[',
      '\n',
      'Thought: x',
      '```',
      '{"a": [1]}',
      'Finish[',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragment, fc.string({ maxLength: 5 })), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        fc.pre(!text.includes('\nObservation:'));
        const parsed = parseReply(`Thought: done\nAction: Finish[${text}]`);
        expect(parsed).toMatchObject({ kind: 'finish', answer: text });
      }),
      { numRuns: Number(process.env.MCA_FUZZ_RUNS ?? 500) },
    );
  });
});

describe('formatAction and actionKey', () => {
  it('round-trips through parseReply', () => {
    const action = { tool: 'Edit', input: { path: 'a.ts', old_string: 'x]', new_string: '[y' } };
    expect(parseReply(formatAction(action))).toMatchObject({ kind: 'action', action, exact: true });
    expect(actionKey(action)).toBe(actionKey({ ...action }));
  });
});
