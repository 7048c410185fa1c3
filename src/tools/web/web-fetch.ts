/**
 * WebFetch{url, prompt}: a web page as Markdown for the model. Asks the person per domain (the "don't ask again"
 * answer and settings rules are `WebFetch(domain:example.com)`); in `-p` it is denied unless such a rule, a mode
 * or a flag allows it. Unlike Claude Code, no second model pass applies `prompt` to the page: the page (HTML
 * converted to Markdown with node-html-markdown, loaded on the first fetch) comes back with the prompt, capped at
 * WEB_FETCH_MAX_CHARS, and history keeps its head (the whole result stays in tool memory for Recall).
 * Limits and the private-address rule: web-fetch-get.ts and web-fetch-address.ts.
 */
import type { EnvironmentView } from '../../config/child-environment.js';
import { clip, isFiniteNumber, isString } from '../../text/json-guards.js';
import { defineTool, jsonSchemaInput, type ToolMembers } from '../registry/define-tool.js';
import { stringField } from '../registry/result-forms.js';
import { loadToolCode } from '../registry/tool-code-loader.js';

export const WEB_FETCH = 'WebFetch';
/** Characters of the page history keeps after the step (the rest: Recall). */
const HISTORY_CHARS = 2_000;

const INPUT = jsonSchemaInput({
  type: 'object',
  properties: {
    url: { type: 'string', description: 'The URL to fetch (http or https).' },
    prompt: { type: 'string', description: 'What to look for in the page.' },
  },
  required: ['url', 'prompt'],
  additionalProperties: false,
});

const members: ToolMembers = {
  compress: (data) => {
    const { url, status, content } = data;
    if (!isString(url) || !isFiniteNumber(status) || !isString(content)) return undefined;
    return {
      url: clip(url, 500),
      status,
      content: clip(content, HISTORY_CHARS),
      ...(content.length > HISTORY_CHARS || data.truncated === true ? { truncated: true } : {}),
    };
  },
  shrink: (data) => (isString(data.url) ? `fetched ${clip(data.url, 200)} (${String(data.status)})` : undefined),
  display: {
    title: (input) => stringField(input, 'url') ?? '',
    summary: (data) => {
      const chars = isString(data.content) ? data.content.length : 0;
      return `${String(data.status)} · ${chars.toLocaleString('en-US')} chars${data.truncated === true ? ' (cut)' : ''}`;
    },
  },
};

/**
 * The tool, with limits and proxy from the runtime's environment (the call's `ctx.env`, or `fixed` when given):
 * MCA_WEBFETCH_TIMEOUT_MS, MCA_WEBFETCH_MAX_BYTES, MCA_WEBFETCH_PRIVATE_HOSTS, HTTPS_PROXY / HTTP_PROXY / NO_PROXY.
 */
export function createWebFetchTool(fixed?: EnvironmentView) {
  return defineTool({
    name: WEB_FETCH,
    promptFile: 'WebFetch.md',
    inputSchema: INPUT,
    permission: 'exec',
    kind: 'fetch',
    ...members,
    preload: loadToolCode,
    async prepare(input, ctx) {
      return (await loadToolCode()).prepareWebFetch(input, ctx, fixed);
    },
  });
}
