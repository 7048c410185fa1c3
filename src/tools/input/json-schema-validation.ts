/**
 * Validation of a tool input given as a JSON Schema (an MCP tool's, or any tool defined without zod), with ajv.
 * Imported only when such a tool is first called: a session that never calls one never loads ajv. The schema is
 * taken as it is (draft-07 and 2019-09 keywords, `$ref`s inside it); one that does not compile fails the call that
 * needs it, with ajv's reason, and never the session.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import type { JsonSchemaObject } from '../registry/define-tool.js';

/** What a check answers: the input (defaults applied) or the one-line INVALID_PARAM message naming every problem. */
export type JsonInputCheck =
  { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string };

// allErrors: the model is told every bad field at once; useDefaults: schema defaults fill missing fields, as zod's
// defaults do for the built-ins; strict off: foreign schemas carry keywords ajv does not know (`format`s, titles).
// A server's schema is not mca's: its `pattern` and `patternProperties` run on RE2 (re2js, linear time), so a
// catastrophic pattern such as `^(a+)+$` cannot hold the main thread on a crafted input.
const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  strict: false,
  validateFormats: false,
  code: { regExp: linearRegExp },
});

/**
 * Ajv's regular expression engine: RE2 semantics, linear in the input. A pattern RE2 cannot express (lookaround,
 * back-references) is left unchecked here rather than run on the backtracking engine: the server checks its own
 * input, and mca's check is a courtesy to the model, never a guard.
 */
export function linearRegExp(pattern: string): { test: (text: string) => boolean } {
  try {
    const compiled = RE2JS.compile(pattern);
    return { test: (text) => compiled.test(text) };
  } catch {
    return { test: () => true };
  }
}
linearRegExp.code = 'linearRegExp';

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path === '' ? '(input)' : path;
}

function describe(error: ErrorObject): string {
  const field = fieldOf(error);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `"${field === '(input)' ? String(params.missingProperty) : `${field}.${String(params.missingProperty)}`}" is required`;
    case 'additionalProperties':
      return `unknown field "${String(params.additionalProperty)}"${field === '(input)' ? '' : ` in "${field}"`}`;
    case 'enum':
      return `"${field}" must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return `"${field}" ${error.message ?? 'is invalid'}`;
  }
}

/** Compiles `schema` once; the returned check never throws. */
export function compileJsonSchema(
  tool: string,
  schema: JsonSchemaObject,
  allowed: readonly string[],
): (raw: unknown) => JsonInputCheck {
  const validate: ValidateFunction = ajv.compile(schema);
  return (raw) => {
    // useDefaults fills the object it checks: the model's own input stays as it sent it.
    const data: unknown = structuredClone(raw);
    if (validate(data)) return { ok: true, data };
    const errors = validate.errors ?? [];
    const problems = [...new Set(errors.map(describe))];
    const unknown = errors.some((error) => error.keyword === 'additionalProperties');
    const hint = unknown && allowed.length > 0 ? ` Allowed fields: ${allowed.join(', ')}.` : '';
    return { ok: false, message: `Invalid input for ${tool}: ${problems.join('; ')}.${hint}` };
  };
}

/** An ajv for checking what a server sends against its own schema (a tool's `outputSchema`): patterns on RE2. */
export function linearAjv(): Ajv {
  return new Ajv({ allErrors: true, strict: false, validateFormats: false, code: { regExp: linearRegExp } });
}
