/**
 * Checks a tool call's input against the tool's zod schema. The registry imports this module, with the schemas,
 * on the first call whose input the zod-free check (input-quick-check.ts) does not accept, so `mca -p` reaches its
 * first request without zod, and a run whose calls are all valid never loads it.
 */
import { config, safeParse } from 'zod/mini';
import type { $ZodType, output } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { describeInputError } from './input-errors.js';

// zod/mini comes without messages ("Invalid input" for everything); classic zod installs these same English ones
// when it loads, and the messages the model sees quote them (input-errors.ts). Setting them again is harmless.
config(en());

export type InputCheck<Schema extends $ZodType> =
  { readonly ok: true; readonly data: output<Schema> } | { readonly ok: false; readonly message: string };

/** The parsed input (defaults applied), or the one-line INVALID_PARAM message naming every bad field. */
export function checkInput<Schema extends $ZodType>(
  tool: string,
  schema: Schema,
  raw: unknown,
  allowed: readonly string[],
): InputCheck<Schema> {
  const parsed = safeParse(schema, raw, { reportInput: true });
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, message: describeInputError(tool, parsed.error.issues, allowed) };
}
