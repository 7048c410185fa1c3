/**
 * What the model is told about the tools, byte for byte: the native `tools` definitions and the text protocol's
 * tool prompts. The golden (fixtures/tool-definitions.json) was recorded from the classic-zod schemas the tools had
 * before issue 17, with `z.toJSONSchema(schema, { io: 'input' })`. The schemas are zod/mini now and the binary gets
 * their JSON Schemas computed at build time (scripts/tool-json-schemas.mjs); every path must give the golden's bytes.
 * A deliberate change to a tool's input or prompt re-records the golden.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, jsonSchemaOf } from '../../src/tools/registry/define-tool.js';
import { successEnvelope } from '../../src/tools/registry/envelope.js';
import { allBuiltinInputSchemas } from '../../src/tools/input/input-schemas.js';
import { createDefaultRegistry, ToolRegistry } from '../../src/tools/registry/registry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface GoldenSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const golden = JSON.parse(readFileSync(new URL('./fixtures/tool-definitions.json', import.meta.url), 'utf8')) as {
  toolSpecs: GoldenSpec[];
  prompts: Array<{ name: string; prompt: string }>;
};

describe('tool definitions sent to the model', () => {
  it('native tools: the same names, prose and JSON Schemas, in the same key order, as the classic-zod output', () => {
    expect(JSON.stringify(createDefaultRegistry().toolSpecs())).toBe(JSON.stringify(golden.toolSpecs));
  });

  it('text protocol: the same tool prompts with the same generated parameter sections', () => {
    expect(JSON.stringify(createDefaultRegistry().prompts())).toBe(JSON.stringify(golden.prompts));
  });

  it('the JSON Schemas the build computes for the binary are the golden ones, tool by tool', () => {
    const built = JSON.parse(
      execFileSync(process.execPath, ['scripts/tool-json-schemas.mjs'], { cwd: ROOT, encoding: 'utf8' }),
    ) as Record<string, unknown>;
    // WebFetch's input is a JSON Schema in its own module (web-fetch.ts), not a zod schema the build computes.
    const zodSpecs = golden.toolSpecs.filter((spec) => spec.name !== 'WebFetch');
    expect(Object.keys(built)).toEqual(zodSpecs.map((spec) => spec.name));
    for (const spec of zodSpecs) {
      expect(JSON.stringify(built[spec.name]), spec.name).toBe(JSON.stringify(spec.inputSchema));
    }
    // And classic zod's own z.toJSONSchema, run on today's (zod/mini) schemas, says the same.
    for (const [name, schema] of Object.entries(allBuiltinInputSchemas())) {
      const { $schema: _dialect, ...classic } = z.toJSONSchema(schema, { io: 'input' });
      expect(JSON.stringify(classic), name).toBe(JSON.stringify(built[name]));
    }
  });

  it('a tool given a whole classic-zod schema is described exactly as z.toJSONSchema describes it', () => {
    const schemas: z.ZodType[] = [
      z.strictObject({ n: z.number().int().min(1).max(9).default(3).describe('how many.') }),
      z.object({ tags: z.array(z.string().min(1)).max(4).optional(), mode: z.enum(['a', 'b']).default('a') }),
      z.strictObject({ plan: z.string().trim().min(1, 'empty').describe('the plan.'), flag: z.boolean() }),
    ];
    for (const schema of schemas) {
      const { $schema: _dialect, ...classic } = z.toJSONSchema(schema, { io: 'input' });
      expect(JSON.stringify(jsonSchemaOf(schema))).toBe(JSON.stringify(classic));
      const tool = defineTool({
        name: 'Custom',
        promptFile: 'Read.md',
        inputSchema: schema,
        permission: 'none',
        run: () => Promise.resolve(successEnvelope({}, 'ok')),
      });
      const [spec] = new ToolRegistry().register(tool).toolSpecs();
      expect(JSON.stringify(spec?.inputSchema)).toBe(JSON.stringify(classic));
    }
  });
});

describe('input validation in a process that loads only the tools (as the binary does)', () => {
  const calls: Array<[string, unknown]> = [
    ['Read', { path: 'a.js', limit: 0, start_line: 'x', extra: 1 }],
    ['Bash', { timeout_ms: 10 }],
    ['TodoWrite', { todos: [{ content: ' ', status: 'done' }] }],
    ['Recall', { ref: 'zz' }],
    ['ExitPlanMode', { plan: 'x'.repeat(40_001) }],
    ['MultiEdit', { path: 'a', edits: [] }],
    ['LS', { ignore: [''] }],
    ['Glob', { pattern: '', limit: 501 }],
    ['Grep', { pattern: 'x', include: '', case_sensitive: 'yes' }],
    ['Edit', { path: 'a', old_string: 1, new_string: null }],
    ['Write', { path: 'a' }],
  ];

  it('tells the model the same English messages, without classic zod loaded', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'test/tools/fixtures/validate-in-fresh-process.mts', JSON.stringify(calls)],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const { messages, imported } = JSON.parse(out) as { messages: string[]; imported: string[] };
    expect(imported.some((url) => url.includes('/zod/mini/'))).toBe(true);
    expect(imported.filter((url) => /\/zod\/(index\.js|v4\/classic\/)/.test(url))).toEqual([]);
    expect(messages).toEqual([
      'Invalid input for Read: "start_line" must be number, got string; "limit" is too small (expected number to be >=1); unknown field "extra". Allowed fields: path, start_line, limit.',
      'Invalid input for Bash: "command" is required (string); "timeout_ms" is too small (expected number to be >=100).',
      'Invalid input for TodoWrite: "todos[0].content" is too small (content must not be empty); "todos[0].status" must be one of "pending", "in_progress", "completed", "cancelled".',
      'Invalid input for Recall: "ref": a reference looks like r0123456789ab.',
      'Invalid input for ExitPlanMode: "plan" is too big (expected string to have <=40000 characters).',
      'Invalid input for MultiEdit: "edits" is too small (expected array to have >=1 items).',
      'Invalid input for LS: "ignore[0]" is too small (expected string to have >=1 characters).',
      'Invalid input for Glob: "pattern" is too small (expected string to have >=1 characters); "limit" is too big (expected number to be <=500).',
      'Invalid input for Grep: "include" is too small (expected string to have >=1 characters); "case_sensitive" must be boolean, got string.',
      'Invalid input for Edit: "old_string" must be string, got number; "new_string" must be string, got null.',
      'Invalid input for Write: "content" is required (string).',
    ]);
  });
});
