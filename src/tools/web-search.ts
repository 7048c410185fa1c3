/**
 * WebSearch through the provider's server-side search (Anthropic's `web_search` server tool). A server tool runs
 * inside the model's reply, so no call can be stopped and asked about one by one: the search is offered to the
 * model (`ModelRequest.webSearch`) only once it is permitted for the session, and the client tool `WebSearch` is
 * the permission gate until then. Its call goes through the decision point like any tool (asked in the REPL,
 * denied in `-p` unless an allow rule or the mode allows, a deny rule always wins); when it runs, the session's
 * search is turned on (with the call's domain lists) and the model is told to search again. An allow rule for
 * `WebSearch` turns it on from the start. A provider without a server search never offers the tool; a call the
 * model writes anyway is answered in one line (src/tools/registry.ts `markUnavailable`).
 */
import { defineTool, jsonSchemaInput, readyPlan, type ToolDefinition } from './define-tool.js';
import { toolResult } from './results.js';
import type { WebSearchOptions } from '../providers/types.js';
import { isStringArray } from '../text/json-guards.js';
import { stringField } from './result-forms.js';

export const WEB_SEARCH = 'WebSearch';
/** Searches one reply may run (`max_uses`); the API answers more with `max_uses_exceeded`. */
export const WEB_SEARCH_MAX_USES = 5;
/** Domain lists are the model's words: bounded in count and length. */
const MAX_DOMAINS = 20;
const MAX_DOMAIN_CHARS = 253;

const INPUT = jsonSchemaInput({
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to search for.' },
    allowed_domains: { type: 'array', items: { type: 'string' }, description: 'Only results from these domains.' },
    blocked_domains: { type: 'array', items: { type: 'string' }, description: 'Never results from these domains.' },
  },
  required: ['query'],
  additionalProperties: false,
});

function domains(value: unknown): string[] | undefined {
  if (!isStringArray(value)) return undefined;
  const kept = value
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => /^[a-z0-9.*-]+$/.test(domain) && domain.length <= MAX_DOMAIN_CHARS)
    .slice(0, MAX_DOMAINS);
  return kept.length > 0 ? kept : undefined;
}

/** Whether the session's search is on, and with which options; shared by the tool and the request builder. */
export class WebSearchGate {
  private options: WebSearchOptions | undefined;

  /** `supported`: the provider searches on its side and the session uses native tool use. */
  constructor(readonly supported: boolean) {}

  /** Turns the search on (an allow rule at start, or an approved WebSearch call); later calls update the domains. */
  enable(input: { allowedDomains?: string[]; blockedDomains?: string[] } = {}): void {
    if (!this.supported) return;
    this.options = { maxUses: WEB_SEARCH_MAX_USES, ...input };
  }

  /** What the request offers: the server tool's options once on, else nothing. */
  offer(): WebSearchOptions | undefined {
    return this.options;
  }

  /** The client tool is offered while the search is supported and still off. */
  clientToolOffered(): boolean {
    return this.supported && this.options === undefined;
  }
}

export function createWebSearchTool(gate: WebSearchGate): ToolDefinition {
  return defineTool({
    name: WEB_SEARCH,
    promptFile: 'WebSearch.md',
    inputSchema: INPUT,
    // Asked like a command: the search sends the query to the provider's search engine.
    permission: 'exec',
    display: { title: (input) => stringField(input, 'query') ?? '', summary: () => 'web search turned on' },
    prepare(raw) {
      const input = raw as Record<string, unknown>;
      const query = stringField(input, 'query') ?? '';
      const request = { tool: WEB_SEARCH, title: `WebSearch(${query.slice(0, 80)})`, input };
      return Promise.resolve(
        readyPlan(request, () => {
          const allowedDomains = domains(input.allowed_domains);
          const blockedDomains = domains(input.blocked_domains);
          gate.enable({
            ...(allowedDomains ? { allowedDomains } : {}),
            ...(blockedDomains ? { blockedDomains } : {}),
          });
          return Promise.resolve(
            toolResult(
              { enabled: true, query },
              'Web search is on for this session. Search now with the web_search tool (same query), and cite the pages you use.',
            ),
          );
        }),
      );
    },
  });
}

/** The one line a call gets where no server search exists (an OpenAI-compatible provider, the text protocol). */
export function webSearchUnavailable(provider: string, native: boolean): string {
  const name = provider === 'openai' ? 'OpenAI-compatible' : provider;
  return native
    ? `WebSearch is not available: the ${name} provider has no server-side web search (Anthropic's has). Use WebFetch with a URL instead.`
    : 'WebSearch is not available with the text tool protocol: the server-side search needs native tool use (MCA_TOOL_PROTOCOL=native). Use WebFetch with a URL instead.';
}
