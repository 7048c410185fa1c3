/**
 * The Claude Agent SDK's `model` and `fallbackModel` options with short names, driving the built mca (the SDK
 * passes them as `--model=` / `--fallback-model=`): the main model answers 529, the SDK program gets its answer
 * from the fallback, a `system` message `mca_model_fallback`, and a result whose modelUsage names the fallback.
 */
import type { SDKMessage, SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkEnv, sdkQuery, type SdkProject } from '../helpers/agent-sdk.js';
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic-server.js';
import { tempProject } from '../helpers/temp-project.js';

let server: FakeAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the Agent SDK: model short names and fallbackModel', () => {
  it('opus overloaded: the query is answered by the haiku fallback and priced as haiku', async () => {
    const { root, home } = tempProject('mca-sdk-models-');
    server = await startFakeAnthropic([{ text: 'Answered by the fallback.' }], {
      modelErrors: { 'claude-opus-5-5': 529 },
    });
    const sdk: SdkProject = { root, home, baseUrl: server.url };
    const messages: SDKMessage[] = await sdkQuery(sdk, 'hello', {
      model: 'opus',
      fallbackModel: 'haiku',
      env: sdkEnv(sdk, { MCA_MAX_RETRIES: '1', MCA_RETRY_BASE_MS: '1' }),
    });
    expect(server.requests.map((request) => request.body.model)).toEqual([
      'claude-opus-5-5',
      'claude-opus-5-5',
      'claude-haiku-5-5',
    ]);
    const notice = messages.find(
      (message) => message.type === 'system' && (message as { subtype: string }).subtype === 'mca_model_fallback',
    );
    expect(notice).toMatchObject({ from: 'claude-opus-5-5', to: 'claude-haiku-5-5' });
    const result = messages.find((message): message is SDKResultMessage => message.type === 'result');
    expect(result).toMatchObject({ subtype: 'success', result: 'Answered by the fallback.' });
    expect(Object.keys(result?.modelUsage ?? {})).toEqual(['claude-haiku-5-5']);
  });
});
