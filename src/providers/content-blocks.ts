/**
 * Assembles the non-text content blocks of an Anthropic stream: a `tool_use` block's input arrives as
 * `input_json_delta` pieces and is whole only at `content_block_stop`; a `thinking` block streams its text and
 * ends with a signature that must be passed back unchanged within the turn. The web search server tool's blocks
 * (`server_tool_use` with the query, `web_search_tool_result` with the results or an error) become one
 * `web_search` event per search, and the text's `citations_delta`s are collected for `sources()`.
 */
import type { StreamEvent, WebSearchRun } from './types.js';

interface OpenToolUse {
  kind: 'tool_use';
  id: string;
  name: string;
  json: string;
}

interface OpenServerUse {
  kind: 'server_tool_use';
  id: string;
  json: string;
}

interface OpenThinking {
  kind: 'thinking';
  thinking: string;
  signature: string;
}

/** The shapes read from the SDK's events, kept structural so a new block type is ignored rather than fatal. */
interface BlockStart {
  type: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
  content?: unknown;
}

interface BlockDelta {
  type: string;
  partial_json?: string;
  thinking?: string;
  signature?: string;
  citation?: unknown;
}

/** A search's query and results are the API's; bounded so a hostile endpoint cannot flood the screen or history. */
const MAX_QUERY_CHARS = 500;
const MAX_RESULTS = 50;
const MAX_TITLE_CHARS = 200;
const MAX_URL_CHARS = 2_000;
/** Pages one answer's Sources list names at most. */
export const MAX_SOURCES = 20;

function clipped(value: unknown, max: number): string {
  // Whitespace runs become one space and control characters go: the text reaches the terminal and the history.
  const text =
    typeof value === 'string'
      ? value
          .replace(/\s+/g, ' ')
          // eslint-disable-next-line no-control-regex -- the point is to remove control characters
          .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
          .trim()
      : '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The results of a `web_search_tool_result` block's `content`: a list of results, or an error object. */
function searchResults(content: unknown): Pick<WebSearchRun, 'results' | 'error'> {
  if (Array.isArray(content)) {
    const results = content
      .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
      .filter((item) => item.type === 'web_search_result' && typeof item.url === 'string')
      .slice(0, MAX_RESULTS)
      .map((item) => ({ title: clipped(item.title, MAX_TITLE_CHARS), url: clipped(item.url, MAX_URL_CHARS) }));
    return { results };
  }
  const code =
    content !== null && typeof content === 'object' ? (content as Record<string, unknown>).error_code : undefined;
  return { results: [], error: clipped(code, 100) || 'unknown_error' };
}

function queryOf(json: string): string {
  const input = parseToolInput(json);
  const query = input !== null && typeof input === 'object' ? (input as Record<string, unknown>).query : undefined;
  return clipped(query, MAX_QUERY_CHARS);
}

/**
 * A tool_use input as sent: the parsed object, or the raw text when it is not JSON (a reply cut at the output
 * limit); the registry refuses anything but an object with INVALID_PARAM.
 */
export function parseToolInput(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

export class ContentBlockAssembler {
  private readonly open = new Map<number, OpenToolUse | OpenThinking | OpenServerUse>();
  /** Queries of finished `server_tool_use` blocks, by id, until their result block arrives. */
  private readonly queries = new Map<string, string>();
  /** Web pages the reply's text cited, in first-cited order, without repeats. */
  private readonly cited = new Map<string, string>();

  start(index: number, block: BlockStart): StreamEvent | undefined {
    if (block.type === 'server_tool_use' && block.name === 'web_search') {
      this.open.set(index, { kind: 'server_tool_use', id: block.id ?? '', json: '' });
    } else if (block.type === 'web_search_tool_result') {
      // The result block arrives whole in its start event.
      const id = block.tool_use_id ?? '';
      const query = this.queries.get(id) ?? '';
      this.queries.delete(id);
      return { type: 'web_search', search: { query, ...searchResults(block.content) } };
    } else if (block.type === 'tool_use') {
      this.open.set(index, { kind: 'tool_use', id: block.id ?? `call_${index}`, name: block.name ?? '', json: '' });
    } else if (block.type === 'thinking') {
      this.open.set(index, { kind: 'thinking', thinking: '', signature: '' });
    }
    return undefined;
  }

  /** Returns the event to show live (thinking text), if any. */
  delta(index: number, delta: BlockDelta): StreamEvent | undefined {
    if (delta.type === 'citations_delta') {
      this.cite(delta.citation);
      return undefined;
    }
    const block = this.open.get(index);
    if ((block?.kind === 'tool_use' || block?.kind === 'server_tool_use') && delta.type === 'input_json_delta')
      block.json += delta.partial_json ?? '';
    if (block?.kind === 'thinking' && delta.type === 'thinking_delta' && delta.thinking) {
      block.thinking += delta.thinking;
      return { type: 'thinking', text: delta.thinking };
    }
    if (block?.kind === 'thinking' && delta.type === 'signature_delta') block.signature += delta.signature ?? '';
    return undefined;
  }

  /** Returns the whole call or thinking block once its block ends. */
  stop(index: number): StreamEvent | undefined {
    const block = this.open.get(index);
    this.open.delete(index);
    if (block?.kind === 'server_tool_use') {
      this.queries.set(block.id, queryOf(block.json));
      return undefined;
    }
    if (block?.kind === 'tool_use') {
      return { type: 'tool_call', call: { id: block.id, name: block.name, input: parseToolInput(block.json) } };
    }
    if (block?.kind === 'thinking') {
      return { type: 'thinking_block', block: { thinking: block.thinking, signature: block.signature } };
    }
    return undefined;
  }

  /** The pages the reply's text cited so far, in order. */
  sources(): CitedSource[] {
    return [...this.cited].map(([url, title]) => ({ url, title }));
  }

  private cite(citation: unknown): void {
    if (citation === null || typeof citation !== 'object') return;
    const { type, url, title } = citation as Record<string, unknown>;
    if (type !== 'web_search_result_location' || typeof url !== 'string' || this.cited.size >= MAX_SOURCES) return;
    const key = clipped(url, MAX_URL_CHARS);
    if (!this.cited.has(key)) this.cited.set(key, clipped(title, MAX_TITLE_CHARS));
  }
}

export interface CitedSource {
  title: string;
  url: string;
}

/** The sources a reply's text cited (web search results), for the answer's closing "Sources" list. */
export function sourcesText(sources: readonly CitedSource[]): string {
  if (sources.length === 0) return '';
  const lines = sources.map((source) => `- ${source.title ? `${source.title} ` : ''}<${source.url}>`);
  return `\n\nSources:\n${lines.join('\n')}`;
}
