/**
 * The JSON Schema validator the MCP client library uses for a tool's `outputSchema` (structured results): ajv with
 * RE2 patterns (src/tools/input/json-schema-validation.ts), instead of the library's default ajv on the backtracking
 * engine, on which a server's `pattern: "^(a+)+$"` and a crafted result would hold mca's main thread for good.
 */
import type { Ajv } from 'ajv';
import { linearAjv } from '../tools/input/json-schema-validation.js';

type Result<T> =
  { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };

export class LinearSchemaValidator {
  private ajv: Ajv | undefined;

  getValidator<T>(schema: unknown): (input: unknown) => Result<T> {
    this.ajv ??= linearAjv();
    let check: ReturnType<Ajv['compile']>;
    try {
      check = this.ajv.compile(schema as object);
    } catch (error) {
      const message = `the server's output schema does not compile: ${(error as Error).message}`;
      return () => ({ valid: false, data: undefined, errorMessage: message });
    }
    return (input) =>
      check(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: this.ajv?.errorsText(check.errors) ?? 'invalid' };
  }
}
