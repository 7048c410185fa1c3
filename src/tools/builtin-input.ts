/**
 * The input of a built-in tool: its JSON Schema (computed by the build, see input-json-schemas.ts) and its zod/mini
 * schema, imported with the others on the first tool call. Tool modules name only the schema's type, so loading
 * the tools loads no zod.
 */
import type { ToolInput } from './define-tool.js';
import { builtinInputJsonSchemas } from './input-json-schemas.js';
import type * as InputSchemas from './input-schemas.js';
import type { BuiltinInputSchemas, BuiltinToolName } from './input-schemas.js';

let schemas: Promise<typeof InputSchemas> | undefined;

export function builtinInput<Name extends BuiltinToolName>(name: Name): ToolInput<BuiltinInputSchemas[Name]> {
  return {
    get jsonSchema() {
      return builtinInputJsonSchemas()[name];
    },
    async load() {
      schemas ??= import('./input-schemas.js');
      return (await schemas).builtinInputSchema(name);
    },
  };
}
