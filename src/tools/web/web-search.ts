/**
 * WebSearch through the provider's server-side search (Anthropic's `web_search` server tool). A server tool runs
 * inside the model's reply, so no call can be stopped and asked about one by one: the search is offered to the
 * model (`ModelRequest.webSearch`) only once it is permitted for the session, and the client tool `WebSearch` is
 * the permission gate until then. Its call goes through the decision point like any tool (asked in the REPL,
 * denied in `-p` unless an allow rule or the mode allows, a deny rule always wins); when it runs, the session's
 * search is turned on (with the call's domain lists) and the model is told to search again. An allow rule for
 * `WebSearch` turns it on from the start. A provider without a server search never offers the tool; a call the
 * model writes anyway is answered in one line (src/tools/registry/registry.ts `markUnavailable`).
 */
import { defineTool, failedPlan, jsonSchemaInput, readyPlan, type ToolDefinition } from '../registry/define-tool.js';
import { errorEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import type { WebSearchOptions } from '../../providers/types.js';
import { isStringArray } from '../../text/json-guards.js';
import { stringField } from '../registry/result-forms.js';

export const WEB_SEARCH = 'WebSearch';
/** Searches one reply may run (`max_uses`); the API answers more with `max_uses_exceeded`. */
export const WEB_SEARCH_MAX_USES = 5;
/** Domain lists are the model's words: bounded in count and length, and each must look like a host name. */
const MAX_DOMAINS = 20;
const MAX_DOMAIN_CHARS = 253;
const DOMAIN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

const INPUT = jsonSchemaInput({
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to search for.' },
    allowed_domains: {
      type: 'array',
      items: { type: 'string' },
      description: 'Only results from these domains (not together with blocked_domains).',
    },
    blocked_domains: {
      type: 'array',
      items: { type: 'string' },
      description: 'Never results from these domains (not together with allowed_domains).',
    },
  },
  required: ['query'],
  additionalProperties: false,
});

type DomainList = { ok: true; domains: string[] } | { ok: false; message: string };

/** One domain list as the server tool takes it (`example.com`, `docs.example.com`, `*.example.com`). */
function domainList(field: string, value: unknown): DomainList {
  if (value === undefined) return { ok: true, domains: [] };
  if (!isStringArray(value)) return { ok: false, message: `${field} must be a list of domain names.` };
  if (value.length > MAX_DOMAINS)
    return { ok: false, message: `${field} has ${value.length} entries; at most ${MAX_DOMAINS}.` };
  const domains: string[] = [];
  for (const raw of value) {
    const domain = raw.trim().toLowerCase();
    if (domain.length > MAX_DOMAIN_CHARS || !DOMAIN.test(domain)) {
      const shown = JSON.stringify(raw.slice(0, 80));
      return { ok: false, message: `${field}: ${shown} is not a domain name (write example.com, no scheme or path).` };
    }
    if (!domains.includes(domain)) domains.push(domain);
  }
  return { ok: true, domains };
}

type SearchDomains = { ok: true; allowed: string[]; blocked: string[] } | { ok: false; message: string };

/**
 * The call's domain lists as the server tool's options, or the INVALID_PARAM line the model reads: the API takes
 * either list, never both in one tool definition.
 */
export function searchDomains(input: Record<string, unknown>): SearchDomains {
  const allowed = domainList('allowed_domains', input.allowed_domains);
  if (!allowed.ok) return allowed;
  const blocked = domainList('blocked_domains', input.blocked_domains);
  if (!blocked.ok) return blocked;
  if (allowed.domains.length > 0 && blocked.domains.length > 0) {
    return {
      ok: false,
      message:
        'allowed_domains and blocked_domains cannot both be set: the search takes one list. Call again with one of them.',
    };
  }
  return { ok: true, allowed: allowed.domains, blocked: blocked.domains };
}

/**
 * Whether the session's search is on, and with which options; shared by the tool and the request builder. It lives
 * as long as the runtime, but its "on" is a session's: a new session (`/clear`, `/resume`) starts from the state
 * the rules give, as every "yes, don't ask again this session" answer does (src/driver/session-driver.ts
 * installs a fresh decision point on every switch).
 */
export class WebSearchGate {
  private options: WebSearchOptions | undefined;
  /** An allow rule covers WebSearch: every session starts with the search on. */
  private onFromStart = false;

  /** `supported`: the provider searches on its side and the session uses native tool use. */
  constructor(readonly supported: boolean) {}

  /** An allow rule covers WebSearch: on now and at the start of every later session. */
  allowByRule(): void {
    if (!this.supported) return;
    this.onFromStart = true;
    this.enable();
  }

  /** Turns the search on (an allow rule at start, or an approved WebSearch call) with the call's domain lists. */
  enable(input: { allowedDomains?: string[]; blockedDomains?: string[] } = {}): void {
    if (!this.supported) return;
    this.options = { maxUses: WEB_SEARCH_MAX_USES, ...input };
  }

  /** A new session opened: back to what the rules give (an approved call's "on" was the last session's). */
  newSession(): void {
    this.options = undefined;
    if (this.onFromStart) this.enable();
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
      const lists = searchDomains(input);
      if (!lists.ok) return Promise.resolve(failedPlan(errorEnvelope('INVALID_PARAM', `WebSearch: ${lists.message}`)));
      const request = { tool: WEB_SEARCH, title: `WebSearch(${query.slice(0, 80)})`, input };
      return Promise.resolve(
        readyPlan(request, () => {
          const { allowed, blocked } = lists;
          gate.enable({
            ...(allowed.length > 0 ? { allowedDomains: allowed } : {}),
            ...(blocked.length > 0 ? { blockedDomains: blocked } : {}),
          });
          const scope =
            allowed.length > 0
              ? ` Results are limited to ${allowed.join(', ')} for this session.`
              : blocked.length > 0
                ? ` Results never come from ${blocked.join(', ')} this session.`
                : '';
          return Promise.resolve(
            toolResult(
              {
                enabled: true,
                query,
                ...(allowed.length > 0 ? { allowed_domains: allowed } : {}),
                ...(blocked.length > 0 ? { blocked_domains: blocked } : {}),
              },
              `Web search is on for this session.${scope} Search now with the web_search tool (same query), and cite the pages you use.`,
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
