/**
 * L1 = prompts/system.md followed by every tool's prompt (prompts/tools/<Name>.md) inside a `# Tools` section.
 * A tool prompt that starts with its own Markdown heading (e.g. `## Bash`) is used as is; one that starts with
 * its body gets a `## <Name>` heading. The order given is kept (the registry's order), so the prefix stays
 * byte-stable between calls and caches.
 */
export const TOOLS_HEADING = '# Tools';

export function composeSystemLayer(systemMd: string, tools: ReadonlyArray<{ name: string; prompt: string }>): string {
  const system = systemMd.trim();
  if (tools.length === 0) return system;
  const sections = tools.map((tool) => {
    const body = tool.prompt.trim();
    return /^#{1,6}\s/.test(body) ? body : `## ${tool.name}\n\n${body}`.trimEnd();
  });
  return `${system}\n\n${TOOLS_HEADING}\n\n${sections.join('\n\n')}`;
}

/** The placeholder in prompts/system.md where the protocol's section goes. */
export const PROTOCOL_PLACEHOLDER = '{{protocol}}';

/**
 * L1 for a tool protocol. `text`: the system prompt with the ReAct section, then the tool prompts (`# Tools`).
 * `native`: the system prompt with the tool-calling section and no tool prompts (their prose and schemas travel
 * as the request's `tools`).
 */
export function composeProtocolLayer(
  systemMd: string,
  protocol: { name: 'native' | 'text'; section: string },
  tools: ReadonlyArray<{ name: string; prompt: string }>,
): string {
  const system = systemMd.replace(PROTOCOL_PLACEHOLDER, protocol.section.trim());
  return protocol.name === 'native' ? system.trim() : composeSystemLayer(system, tools);
}
