/**
 * What the model is told about the tools, byte for byte: the native `tools` definitions and the text protocol's
 * tool prompts. The golden (fixtures/tool-definitions.json) was recorded from the classic-zod schemas with
 * `z.toJSONSchema(schema, { io: 'input' })`; whatever produces the definitions now must produce the same bytes.
 * A deliberate change to a tool's input or prompt re-records it (see the fixture's note below).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../src/tools/registry.js';

const golden = JSON.parse(readFileSync(new URL('./fixtures/tool-definitions.json', import.meta.url), 'utf8')) as {
  toolSpecs: unknown[];
  prompts: unknown[];
};

describe('tool definitions sent to the model', () => {
  it('native tools: the same names, prose and JSON Schemas, in the same key order, as the classic-zod output', () => {
    expect(JSON.stringify(createDefaultRegistry().toolSpecs())).toBe(JSON.stringify(golden.toolSpecs));
  });

  it('text protocol: the same tool prompts with the same generated parameter sections', () => {
    expect(JSON.stringify(createDefaultRegistry().prompts())).toBe(JSON.stringify(golden.prompts));
  });
});
