import { describe, expect, it } from 'vitest';
import { resultEnvelope } from '../../src/mcp/result-envelope.js';
import { InMemoryToolMemory } from '../../src/tools/memory/tool-memory.js';
import { pngBytes } from '../helpers/image-fixtures.js';

const options = { server: 's', tool: 't', maxOutputTokens: 25_000, toolMemory: undefined };

describe('MCP results as envelopes', () => {
  it('joins text, describes images and audio, names resource links, inlines text resources', () => {
    const envelope = resultEnvelope(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
          { type: 'audio', data: 'aGk=', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
          { type: 'resource', resource: { uri: 'mem://x', text: 'embedded text' } },
          { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA', mimeType: 'application/zip' } },
        ],
      },
      options,
    );
    expect(envelope.status).toBe('success');
    expect(envelope.text.split('\n')).toEqual([
      'hello',
      '[image result: image/png, 6 bytes; not shown: mcp s/t is not a PNG, JPEG, GIF or WebP image]',
      '[audio result: audio/wav, 3 bytes; not shown to the model]',
      '[resource link: a.txt <file:///a.txt> (text/plain)]',
      '[resource mem://x]',
      'embedded text',
      '[resource mem://b: application/zip, 3 bytes; not shown]',
    ]);
  });

  it('an image block that is a real image rides on the envelope; the text keeps its one-line reference', () => {
    const png = pngBytes(4, 2).toString('base64');
    const envelope = resultEnvelope({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] }, options);
    expect(envelope.images).toMatchObject([{ type: 'image', mediaType: 'image/png', data: png, width: 4, height: 2 }]);
    expect(envelope.text).toMatch(/^\[image: mcp s\/t, 4x2, 1 KB\]$/);
    const many = resultEnvelope(
      { content: Array.from({ length: 25 }, () => ({ type: 'image' as const, data: png, mimeType: 'image/png' })) },
      options,
    );
    expect(many.images).toHaveLength(20);
    expect(many.text).toContain('not shown: over 20 images');
  });

  it('isError becomes an error observation carrying the server text; structuredContent stands in for no content', () => {
    const failed = resultEnvelope({ content: [{ type: 'text', text: 'no such repo' }], isError: true }, options);
    expect(failed.status).toBe('error');
    expect(failed.error?.code).toBe('EXECUTION_ERROR');
    expect(failed.text).toContain('no such repo');
    const structured = resultEnvelope({ content: [], structuredContent: { temp: 21 } }, options);
    expect(structured.text).toContain('"temp": 21');
  });

  it('neutralises control sequences and cuts an oversized result, keeping the whole in tool memory', () => {
    const memory = new InMemoryToolMemory();
    const text = `\u001b]52;c;x\u0007${'y'.repeat(1000)}END`;
    const envelope = resultEnvelope(
      { content: [{ type: 'text', text }] },
      { ...options, maxOutputTokens: 10, toolMemory: memory },
    );
    expect(envelope.status).toBe('partial');
    expect(envelope.text).not.toContain('\u001b');
    expect(envelope.text).not.toContain('END');
    const ref = envelope.data.ref as string;
    expect(memory.recall(ref)).toContain('END');
    expect(envelope.text).toContain(`Recall {"ref": "${ref}"`);
  });
});
