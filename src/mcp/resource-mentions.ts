/**
 * `@server:uri` in a prompt (Claude Code's form, e.g. `@github:repo://owner/name/issues/1`): the resource is read
 * with `resources/read` and its text attached after the prompt, inside `<mcp-resource>` tags, so the model sees it
 * in the same turn. A mention is `@`, a configured server's name, `:`, and a URI with a scheme (`@a.ts:12` is not
 * one: its "URI" has no scheme, so file mentions with line numbers are left to the file preprocessor). At most
 * MAX_RESOURCE_MENTIONS are read per prompt; all attached text together stays under the MCP output cap; a blob is a
 * one-line note. An unknown server or a failing read is one notice line, and the prompt runs without it.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { resourceText } from './prompt-text.js';
import { sanitizeServerPart } from './tool-names.js';

export const MAX_RESOURCE_MENTIONS = 10;
const MENTION = /(?<![A-Za-z0-9])@([A-Za-z0-9][\w.-]*):([A-Za-z][A-Za-z0-9+.-]*:[^\s"<>`]+)/g;
const TRAILING = /[.,;:!?)\]}'"]+$/;

export interface ResourceMention {
  server: string;
  uri: string;
}

export interface ResourceReader {
  /** The configured servers' names. */
  servers(): readonly string[];
  read(server: string, uri: string): Promise<ReadResourceResult>;
}

/** The distinct `@server:uri` mentions of a prompt, in order (the server as written, not yet checked). */
export function findResourceMentions(text: string): ResourceMention[] {
  const found: ResourceMention[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const server = match[1] ?? '';
    const uri = (match[2] ?? '').replace(TRAILING, '');
    const key = `${server}\u0000${uri}`;
    if (uri === '' || seen.has(key)) continue;
    seen.add(key);
    found.push({ server, uri });
  }
  return found;
}

function short(text: string): string {
  const line = neutralizeControlSequences(text.replace(/\s+/g, ' '));
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function attribute(text: string): string {
  return text.replace(/[&"<>]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The prompt with each mentioned resource's text attached, and a line for each that could not be. */
export async function attachResources(
  prompt: string,
  reader: ResourceReader,
  maxChars: number,
): Promise<{ text: string; notices: string[] }> {
  const mentions = findResourceMentions(prompt);
  if (mentions.length === 0) return { text: prompt, notices: [] };
  const notices: string[] = [];
  if (mentions.length > MAX_RESOURCE_MENTIONS) {
    notices.push(`only the first ${MAX_RESOURCE_MENTIONS} of ${mentions.length} MCP resource mentions are attached`);
  }
  const names = reader.servers();
  const serverOf = (written: string): string | undefined =>
    names.find((name) => name === written) ?? names.find((name) => sanitizeServerPart(name) === written);
  const reads = mentions.slice(0, MAX_RESOURCE_MENTIONS).map(async (mention) => {
    const server = serverOf(mention.server);
    if (!server) {
      notices.push(`@${short(mention.server)}:${short(mention.uri)}: no MCP server named "${short(mention.server)}"`);
      return undefined;
    }
    try {
      return { mention, result: await reader.read(server, mention.uri) };
    } catch (error) {
      notices.push(
        `@${short(mention.server)}:${short(mention.uri)}: ${short(error instanceof Error ? error.message : String(error))}`,
      );
      return undefined;
    }
  });
  let budget = maxChars;
  const blocks: string[] = [];
  for (const read of await Promise.all(reads)) {
    if (!read) continue;
    const { text: body, used } = resourceText(read.result, budget);
    budget -= used;
    const { server, uri } = read.mention;
    blocks.push(`<mcp-resource server="${attribute(server)}" uri="${attribute(uri)}">\n${body}\n</mcp-resource>`);
  }
  if (blocks.length === 0) return { text: prompt, notices };
  return { text: `${prompt}\n\n${blocks.join('\n\n')}`, notices };
}
