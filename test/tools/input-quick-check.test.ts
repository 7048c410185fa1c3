/**
 * The zod-free check of a built-in tool's input (src/tools/input/input-quick-check.ts): whatever it accepts, the tool's
 * zod schema accepts too, with the same parsed value (defaults applied, same key order), so skipping zod changes
 * nothing the tool or the model sees; whatever it does not accept goes to zod, whose messages stay as they were.
 */
import fc from 'fast-check';
import { safeParse } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { builtinInput } from '../../src/tools/input/builtin-input.js';
import { builtinInputJsonSchemas, builtinPlainInputs } from '../../src/tools/input/input-json-schemas.js';
import { quickCheck } from '../../src/tools/input/input-quick-check.js';
import { builtinInputSchema, type BuiltinToolName } from '../../src/tools/input/input-schemas.js';
import type { JsonSchemaObject } from '../../src/tools/registry/define-tool.js';

const RUNS = Number(process.env.MCA_FUZZ_RUNS ?? 300);
const schemas = builtinInputJsonSchemas();
const names = Object.keys(schemas) as BuiltinToolName[];

/** Values near a property's bounds and types, valid and not. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('', ' ', '.', 'src', 'a.ts', '**/*.ts', 'r0123456789ab', 'r0123', 'pending', 'done', '  x  '),
  fc.string({ maxLength: 8 }),
  fc.constantFrom(0, 1, -1, 2, 50, 99, 100, 101, 500, 501, 1000, 1001, 2000, 2001, 1.5, -0, 1e20, 600_000, 600_001),
  fc.integer({ min: -5, max: 3000 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

function valueFor(schema: JsonSchemaObject): fc.Arbitrary<unknown> {
  if (schema.type === 'array' && typeof schema.items === 'object') {
    return fc.oneof(fc.array(valueFor(schema.items as JsonSchemaObject), { maxLength: 3 }), anyValue);
  }
  if (schema.type === 'object') return fc.oneof(inputFor(schema), anyValue);
  return anyValue;
}

/** An object with some of the schema's properties (each any value), sometimes an extra key. */
function inputFor(schema: JsonSchemaObject): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaObject>;
  const shape = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, valueFor(property)]));
  return fc
    .tuple(
      fc.record(shape, { requiredKeys: [] }),
      fc.option(fc.constantFrom('extra', 'Path', '__proto__'), { freq: 4 }),
    )
    .map(([input, extra]) => (extra === null ? input : { ...input, ...JSON.parse(`{"${extra}": 1}`) }));
}

describe('the zod-free input check of the built-in tools', () => {
  it('marks the tools whose schemas trim their input as not plain; the others as plain', () => {
    const plain = builtinPlainInputs();
    expect(names.filter((name) => !plain[name]).sort()).toEqual(['ExitPlanMode', 'TodoWrite']);
  });

  /** A valid call of each tool, so the property below cannot pass by accepting nothing. */
  const VALID: Record<BuiltinToolName, Record<string, unknown>> = {
    LS: {},
    Glob: { pattern: '**/*.ts' },
    Grep: { pattern: 'x', include: '*.ts', case_sensitive: true },
    Read: { path: 'a.ts', start_line: 2, limit: 10 },
    Write: { path: 'a.ts', content: '' },
    Edit: { path: 'a.ts', old_string: 'a', new_string: 'b', replace_all: true },
    MultiEdit: { path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }] },
    Bash: { command: 'ls', timeout_ms: 100, run_in_background: true },
    TaskOutput: { task_id: 'bash_1', block: false, timeout: 10 },
    TaskStop: { task_id: 'bash_1' },
    TodoWrite: { todos: [] },
    Recall: { ref: 'r0123456789ab' },
    ExitPlanMode: { plan: 'do it' },
  };

  for (const name of names) {
    it(`${name}: what the tool's check accepts without zod, zod accepts with the same parsed input`, () => {
      const check = (raw: unknown) => builtinInput(name).quickCheck?.(raw);
      const zod = builtinInputSchema(name);
      const same = (raw: unknown) => {
        const quick = check(raw);
        if (!quick) return;
        const parsed = safeParse(zod, raw);
        expect(parsed.success, JSON.stringify(raw)).toBe(true);
        expect(JSON.stringify(quick.data)).toBe(JSON.stringify(parsed.data));
        expect(quick.data).toEqual(parsed.data);
      };
      fc.assert(fc.property(inputFor(schemas[name]), same), { numRuns: RUNS });
      same(VALID[name]);
      // Plain tools take the zod-free path for a valid call; the trimming ones never do.
      expect(check(VALID[name]) !== undefined).toBe(builtinPlainInputs()[name]);
    });
  }

  it('valid calls of the bench task are accepted without zod, defaults applied as zod applies them', () => {
    for (const [name, raw] of [
      ['LS', { path: '.' }],
      ['Glob', { pattern: '**/*.ts' }],
      ['Read', { path: 'src/index.ts' }],
      ['Grep', { pattern: 'export function', path: 'src' }],
      ['MultiEdit', { path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }] }],
      ['Recall', { ref: 'r0123456789ab' }],
    ] as const) {
      const quick = quickCheck(schemas[name], raw);
      const parsed = safeParse(builtinInputSchema(name), raw);
      expect(quick, name).toBeDefined();
      expect(JSON.stringify(quick?.data)).toBe(JSON.stringify(parsed.data));
    }
  });

  it('an input zod rejects is never accepted (zod words the error)', () => {
    for (const [name, raw] of [
      ['LS', { path: '.', limit: 0 }],
      ['Read', { path: 'a', start_line: 1.5 }],
      ['Glob', { pattern: '' }],
      ['Glob', { pattern: 'x', extra: 1 }],
      ['Recall', { ref: 'r01' }],
      ['Bash', { command: 'ls', timeout_ms: 99 }],
      ['MultiEdit', { path: 'a', edits: [] }],
    ] as const) {
      expect(quickCheck(schemas[name], raw), `${name} ${JSON.stringify(raw)}`).toBeUndefined();
      expect(safeParse(builtinInputSchema(name), raw).success).toBe(false);
    }
  });
});
