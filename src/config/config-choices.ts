/**
 * The fixed choices of a few config keys, in a leaf module of their own: the command line offers them as flag
 * choices (`--permission-mode`, `--tool-protocol`) and must not load the config loader to do so.
 */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Model backends: the Anthropic Messages API, or any OpenAI-compatible chat completions API. */
export const PROVIDERS = ['anthropic', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * How tool calls travel (DESIGN.md "Tool protocol"): `native` uses the API's tool calling (several calls per reply);
 * `text` is the ReAct text protocol of spec E1, for servers without tool calling.
 */
export const TOOL_PROTOCOLS = ['native', 'text'] as const;
export type ToolProtocol = (typeof TOOL_PROTOCOLS)[number];
