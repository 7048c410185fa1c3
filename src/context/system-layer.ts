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
/** The placeholder in prompts/system.md where the protocol's description of the context goes. */
export const CONTEXT_PLACEHOLDER = '{{context}}';
/**
 * A protocol file holds two parts: how to answer (at PROTOCOL_PLACEHOLDER) and, after this marker line, what the
 * context looks like in that protocol (at CONTEXT_PLACEHOLDER), so native tool use never reads text-protocol forms.
 */
export const CONTEXT_MARKER = '<!-- context -->';

/**
 * L1 for a tool protocol. `text`: the system prompt with the ReAct section and its context description, then the
 * tool prompts (`# Tools`). `native`: the system prompt with the tool-calling section and its context description
 * and no tool prompts (their prose and schemas travel as the request's `tools`).
 */
export function composeProtocolLayer(
  systemMd: string,
  protocol: { name: 'native' | 'text'; section: string },
  tools: ReadonlyArray<{ name: string; prompt: string }>,
): string {
  const at = protocol.section.indexOf(CONTEXT_MARKER);
  const answering = at < 0 ? protocol.section : protocol.section.slice(0, at);
  const context = at < 0 ? '' : protocol.section.slice(at + CONTEXT_MARKER.length);
  const system = systemMd
    .replace(PROTOCOL_PLACEHOLDER, answering.trim())
    .replace(`${CONTEXT_PLACEHOLDER}\n\n`, context.trim() === '' ? '' : `${context.trim()}\n\n`);
  return protocol.name === 'native' ? system.trim() : composeSystemLayer(system, tools);
}

/** A host's own system prompt (Claude Code's `--system-prompt` / `--append-system-prompt`, the SDK's options). */
export interface SystemPromptCustomization {
  /** Replaces mca's opening paragraph (who it is) and its `# Final answers` section; empty: no replacement. */
  replace?: string | undefined;
  /** Added at the very end of the system prompt. */
  append?: string | undefined;
}

const FINAL_ANSWERS = '# Final answers';

/**
 * L1 with a host's replacement: the tool protocol, the working (safety) rules, mentions, project rules, todos and
 * the context description stay, because tools do not work safely without them; only the identity paragraph and
 * the answer style give way to the host's text.
 */
export function replaceSystemIdentity(layer: string, replacement: string | undefined): string {
  const text = replacement?.trim() ?? '';
  if (text === '') return layer;
  const firstBreak = layer.indexOf('\n\n');
  let rest = firstBreak < 0 ? '' : layer.slice(firstBreak + 2);
  const at = rest.indexOf(`\n${FINAL_ANSWERS}`);
  if (at >= 0) {
    const next = rest.indexOf('\n# ', at + 1 + FINAL_ANSWERS.length);
    rest = `${rest.slice(0, at)}${next < 0 ? '' : rest.slice(next)}`;
  }
  return `${text}\n\n${rest.trim()}`.trim();
}
