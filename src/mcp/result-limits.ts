/**
 * The bound on an MCP tool result the model sees (MAX_MCP_OUTPUT_TOKENS, Claude Code's name) and how tokens are
 * counted for it. Apart from result-envelope.ts, which applies them, so the runtime reads them at start without
 * loading the envelope's code.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;
/** mca's token estimate is 3 characters per token (context/token-budget.ts): the cap in characters. */
export const CHARS_PER_TOKEN = 3;
