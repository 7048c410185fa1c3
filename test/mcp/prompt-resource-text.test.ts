/**
 * The pure parts of MCP prompts and resources: how command words fill a prompt's arguments, which prompt names can
 * be commands, which text is an `@server:uri` mention, and how a prompt's or resource's contents become text.
 */
import { describe, expect, it } from 'vitest';
import { mapArguments, promptCommandName, splitArguments } from '../../src/mcp/prompt-commands.js';
import { promptText, resourceText } from '../../src/mcp/prompt-text.js';
import { findResourceMentions } from '../../src/mcp/resource-mentions.js';

const prompt = {
  name: 'weather',
  arguments: [{ name: 'city', required: true }, { name: 'state' }, { name: 'note' }],
};

describe('prompt arguments', () => {
  it('splits words and quoted strings', () => {
    expect(splitArguments(`"New York" 'N Y' plain  more`)).toEqual(['New York', 'N Y', 'plain', 'more']);
    expect(splitArguments('')).toEqual([]);
  });

  it('fills declared arguments in order; extra words join the last; a missing required one is named', () => {
    expect(mapArguments(prompt, 'Paris', 'mcp__w__weather')).toEqual({ city: 'Paris' });
    expect(mapArguments(prompt, '"San Jose" CA be brief', 'mcp__w__weather')).toEqual({
      city: 'San Jose',
      state: 'CA',
      note: 'be brief',
    });
    expect(() => mapArguments(prompt, '', 'mcp__w__weather')).toThrow(
      '/mcp__w__weather needs the argument "city" (usage: /mcp__w__weather <city> [state] [note])',
    );
  });

  it('only prompt names that can be typed as a command become one', () => {
    expect(promptCommandName('my server', 'args-prompt')).toBe('mcp__my_server__args-prompt');
    expect(promptCommandName('s', 'bad name')).toBeUndefined();
    expect(promptCommandName('s', '\u001b[2Jx')).toBeUndefined();
    expect(promptCommandName('s', '-dash')).toBeUndefined();
    expect(promptCommandName('s', 'x'.repeat(65))).toBeUndefined();
  });
});

describe('@server:uri mentions', () => {
  it('finds server:scheme:… mentions, strips sentence punctuation, skips file:line and emails', () => {
    expect(
      findResourceMentions('see @gh:repo://a/b/issues/1, @docs:file:///x.md. and @a.ts:12 or me@host:x://y'),
    ).toEqual([
      { server: 'gh', uri: 'repo://a/b/issues/1' },
      { server: 'docs', uri: 'file:///x.md' },
    ]);
    expect(findResourceMentions('twice @s:x://1 @s:x://1')).toHaveLength(1);
  });
});

describe('contents as text', () => {
  it('a prompt: text, embedded resources as text, binary parts as one-line notes, cut at the cap', () => {
    const text = promptText(
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 'hello' } },
          { role: 'user', content: { type: 'resource', resource: { uri: 'x://e', text: 'EMBED' } } },
          { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
        ],
      },
      1000,
    );
    expect(text).toBe('hello\n\nEMBED\n\n[image (image/png, 3 bytes) not attached]');
    expect(promptText({ messages: [{ role: 'user', content: { type: 'text', text: 'y'.repeat(50) } }] }, 10)).toBe(
      `${'y'.repeat(10)}\n[… 40 more characters cut (MAX_MCP_OUTPUT_TOKENS)]`,
    );
  });

  it('a resource: its text within the budget, a blob as a note that does not use the budget', () => {
    const read = resourceText(
      {
        contents: [
          { uri: 'x://a', text: 'abcdef' },
          { uri: 'x://b', blob: 'AAAAAAAA', mimeType: 'application/pdf' },
        ],
      },
      4,
    );
    expect(read.used).toBe(4);
    expect(read.text).toContain('abcd\n[… 2 more characters cut');
    expect(read.text).toContain('[binary resource x://b (application/pdf, 6 bytes) not attached]');
  });
});
