/**
 * L1 = prompts/system.md followed by every tool's prompt (prompts/tools/<Name>.md), each under its own
 * `## <Name>` heading inside a `# Tools` section. Tool prompts therefore start with their body, not a title.
 * The order given is kept (the registry's order), so the prefix stays byte-stable between calls and caches.
 */
export const TOOLS_HEADING = '# Tools';

export function composeSystemLayer(systemMd: string, tools: ReadonlyArray<{ name: string; prompt: string }>): string {
  const system = systemMd.trim();
  if (tools.length === 0) return system;
  const sections = tools.map((tool) => `## ${tool.name}\n\n${tool.prompt.trim()}`.trimEnd());
  return `${system}\n\n${TOOLS_HEADING}\n\n${sections.join('\n\n')}`;
}
