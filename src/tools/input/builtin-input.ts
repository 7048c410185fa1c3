/**
 * The input of a built-in tool: its JSON Schema (computed by the build, see input-json-schemas.ts), a check that
 * accepts a valid input from that schema alone (input-quick-check.ts), and its zod/mini schema, imported with the
 * others on the first call that check is not sure of (an invalid input gets zod's message). Tool modules name only the schema's type, so loading
 * the tools loads no zod.
 */
import type { ToolInput } from '../registry/define-tool.js';
import { builtinInputJsonSchemas, builtinPlainInputs } from './input-json-schemas.js';
import { quickCheck } from './input-quick-check.js';
import { once } from '../registry/lazy-modules.js';
import type * as InputSchemas from './input-schemas.js';
import type { BuiltinInputSchemas, BuiltinToolName } from './input-schemas.js';

/** The schemas module, imported with the first tool call. */
const loadSchemas: () => Promise<typeof InputSchemas> = once(() => import('./input-schemas.js'));

export function builtinInput<Name extends BuiltinToolName>(name: Name): ToolInput<BuiltinInputSchemas[Name]> {
  return {
    get jsonSchema() {
      return builtinInputJsonSchemas()[name];
    },
    async load() {
      return (await loadSchemas()).builtinInputSchema(name);
    },
    quickCheck(raw) {
      return builtinPlainInputs()[name] ? quickCheck(builtinInputJsonSchemas()[name], raw) : undefined;
    },
  };
}
