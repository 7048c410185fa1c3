/**
 * A registry that changes while a session runs (issue 22): what the next model request carries follows the
 * registry's current list, in both tool protocols, also between two steps of one turn.
 */
import { describe, expect, it } from 'vitest';
import { defineTool, jsonSchemaInput } from '../../src/tools/registry/define-tool.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { createHarness, systemText, userText } from '../helpers/agent-harness.js';
import { act, finish, reply } from '../helpers/scripted-provider.js';

const ping = defineTool({
  name: 'Ping',
  description: 'Answers pong. Read-only.',
  inputSchema: jsonSchemaInput({ type: 'object', properties: {}, additionalProperties: false }),
  permission: 'none',
  run: () => Promise.resolve(successEnvelope({ answer: 'pong' }, 'pong')),
});

describe('a tool list that changes while the session runs', () => {
  it('native: a tool registered after a turn is in the next request’s tools; removed, it is gone again', async () => {
    const h = await createHarness([reply('first'), reply('second'), reply('third')], {
      env: { MCA_TOOL_PROTOCOL: 'native' },
    });
    const names = (call: number): string[] => (h.provider.requests[call]?.tools ?? []).map((tool) => tool.name);
    await h.turn('one');
    expect(names(0)).toContain('Read');
    expect(names(0)).not.toContain('Ping');

    h.registry.register(ping);
    await h.turn('two');
    expect(names(1)).toEqual([...names(0), 'Ping']);
    const spec = h.provider.requests[1]?.tools?.find((tool) => tool.name === 'Ping');
    expect(spec).toEqual({
      name: 'Ping',
      description: 'Answers pong. Read-only.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    });

    expect(h.registry.unregister('Ping')).toBe(true);
    expect(h.registry.unregister('Bash')).toBe(true);
    await h.turn('three');
    expect(names(2)).toEqual(names(0).filter((name) => name !== 'Bash'));
  });

  it('text protocol: a tool registered between two steps of a turn is offered and runs at the next step', async () => {
    const h = await createHarness([
      () => {
        h.registry.register(ping);
        return act('Ping', {});
      },
      finish('pinged'),
    ]);
    const events = await h.turn('ping it');
    expect(systemText(h.provider.requests[0])).not.toContain('## Ping');
    const second = h.provider.requests[1];
    expect(systemText(second)).toContain('## Ping\nAnswers pong. Read-only.');
    expect(userText(second)).toContain('pong');
    expect(events.find((event) => event.type === 'tool_end')).toMatchObject({
      tool: 'Ping',
      result: { status: 'success' },
    });

    h.registry.unregister('Ping');
    h.provider.push(act('Ping', {}), finish('gone'));
    await h.turn('again');
    expect(systemText(h.provider.requests[2])).not.toContain('## Ping');
    expect(userText(h.provider.requests[3])).toContain('Unknown tool "Ping"');
  });
});
