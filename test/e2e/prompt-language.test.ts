/**
 * Issue 41: everything mca sends the model is in English. A session that reads a file and is asked twice more,
 * with a compaction between, sends agent and summary requests; none of them carries a CJK character the user did not write (the summary
 * template once asked the model to fill Chinese placeholders).
 */
import { describe, expect, it } from 'vitest';
import { fakeAnthropicPerTest } from '../helpers/fake-anthropic-per-test.js';
import type { FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { act, agentScript, finish } from './support/agent-script.js';

const anthropic = fakeAnthropicPerTest();

/** CJK punctuation, ideographs, kana, hangul and full-width forms: none of these is in the text mca writes. */
const FOREIGN_SCRIPT = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/u;

function foreignCharacters(body: FakeRequestBody): string[] {
  const text = JSON.stringify(body);
  const found = new Set<string>();
  for (const char of text) if (FOREIGN_SCRIPT.test(char)) found.add(char);
  return [...found];
}

describe('the language of what the model receives', () => {
  it('agent and summary requests carry no CJK text the user did not write', async () => {
    const notes = Array.from({ length: 40 }, (_, i) => `line ${i}: ${'plain English notes '.repeat(5)}`).join('\n');
    const { root, home } = tempProject('mca-e2e-language-', { 'notes.txt': `${notes}\n` });
    const script = agentScript(
      [
        act('read it', 'Read', { path: 'notes.txt' }),
        finish('done', 'read'),
        // The model reports a prompt over half the window: the next turn starts with a compaction.
        { ...finish('done', 'second'), usage: { input_tokens: 20_000 } },
        finish('done', 'third'),
      ],
      { text: '## 📌 Archived Session Summary\nThe user asked to read notes.txt; it was read.' },
    );
    await anthropic.serve(Array.from({ length: 8 }, () => script.step));
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-test-language-0123456789',
      ANTHROPIC_BASE_URL: anthropic.url(),
      MCA_HOME: home,
      MCA_PERMISSION_MODE: 'bypassPermissions',
      // A small window and one retained round, so the first round is what the compaction archives.
      MCA_CONTEXT_WINDOW: '30000',
      MCA_MIN_RETAIN_ROUNDS: '1',
    };
    for (const [index, prompt] of ['read notes.txt', 'and then?', 'what did it say?'].entries()) {
      const run = await runMca(index === 0 ? ['-p', prompt] : ['-c', '-p', prompt], { cwd: root, env });
      expect(run.code, run.stderr).toBe(0);
    }

    expect(script.summaryRequests.length).toBeGreaterThan(0);
    expect(script.agentRequests.length).toBe(4);
    for (const request of [...script.agentRequests, ...script.summaryRequests]) {
      expect(foreignCharacters(request)).toEqual([]);
    }
  });
});
