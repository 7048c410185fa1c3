/**
 * WebFetch{url, prompt}: a web page as Markdown for the model. Asks the person per domain (the "don't ask again"
 * answer and settings rules are `WebFetch(domain:example.com)`); in `-p` it is denied unless such a rule, a mode
 * or a flag allows it. Unlike Claude Code, no second model pass applies `prompt` to the page: the page (HTML
 * converted to Markdown with node-html-markdown, loaded on the first fetch) comes back with the prompt, capped at
 * WEB_FETCH_MAX_CHARS, and history keeps its head (the whole result stays in tool memory for Recall).
 * Limits and the private-address rule: web-fetch-get.ts and web-fetch-address.ts.
 */
import { sessionEnvironment, type EnvironmentView } from '../../config/child-environment.js';
import { clip, isFiniteNumber, isString } from '../../text/json-guards.js';
import { defineTool, failedPlan, jsonSchemaInput, readyPlan, type ToolMembers } from '../registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { stringField } from '../registry/result-forms.js';
import { toolResult } from '../registry/results.js';
import { hostOf, privateHostsAllowed } from './web-fetch-address.js';
import { DEFAULT_WEB_FETCH_LIMITS, fetchPage, type WebFetchLimits } from './web-fetch-get.js';
import { runInWorker, toolDeadlineMs } from '../walking/walk-runner.js';

export const WEB_FETCH = 'WebFetch';
/** Characters of the page the model gets in the current step. */
export const WEB_FETCH_MAX_CHARS = 100_000;
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

function isText(contentType: string): boolean {
  return /^(text\/|application\/(json|xml|javascript|x-javascript|ld\+json|xhtml\+xml)|[^;]*\+(json|xml))/i.test(
    contentType.trim(),
  );
}

/**
 * HTML as Markdown, converted in the walking tools' worker thread under the tool deadline (a deeply nested page
 * would hold the main thread for hours); an envelope says why there is none.
 */
async function markdownOf(html: string, signal: AbortSignal): Promise<string | ToolEnvelope> {
  const deadline = toolDeadlineMs();
  const outcome = await runInWorker({ kind: 'markdown', html }, signal, deadline);
  if (outcome.kind === 'done' && outcome.result.kind === 'markdown') return outcome.result.markdown;
  if (outcome.kind === 'interrupted') return errorEnvelope('EXECUTION_ERROR', `${WEB_FETCH} was interrupted.`);
  if (outcome.kind === 'timeout') {
    return errorEnvelope(
      'TIMEOUT',
      `${WEB_FETCH} stopped converting the page to Markdown after ${deadline} ms (its deadline): the HTML is too deeply nested or too large.`,
    );
  }
  const reason =
    outcome.kind === 'failed'
      ? outcome.message
      : outcome.result.kind === 'error'
        ? outcome.result.error.message
        : 'no Markdown';
  return errorEnvelope('EXECUTION_ERROR', `${WEB_FETCH} could not convert the page to Markdown: ${reason}`);
}

async function contentOf(
  page: { contentType: string; bytes: Uint8Array },
  signal: AbortSignal,
): Promise<string | ToolEnvelope | undefined> {
  const type = page.contentType.toLowerCase();
  const text = Buffer.from(page.bytes).toString('utf8');
  if (type.includes('html')) return await markdownOf(text, signal);
  if (isText(type)) return text;
  if (type === '' && !page.bytes.includes(0)) return text;
  return undefined;
}

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

async function fetchAsMarkdown(
  url: URL,
  prompt: string,
  signal: AbortSignal,
  options: { limits: WebFetchLimits; allowedPrivate: ReadonlySet<string>; env: EnvironmentView },
): Promise<ToolEnvelope> {
  const outcome = await fetchPage(url, { signal, ...options });
  if (outcome.kind === 'failed') return errorEnvelope(outcome.code, outcome.message);
  if (outcome.kind === 'redirect') {
    const text =
      `REDIRECT: ${outcome.from} redirects (${outcome.status}) to another host: ${outcome.to}\n` +
      'It was not followed. To read it, call WebFetch again with that URL and the same prompt.';
    return toolResult({ url: outcome.from, status: outcome.status, redirect: outcome.to, content: '' }, text);
  }
  const content = await contentOf(outcome, signal);
  if (typeof content === 'object') return content;
  if (content === undefined) {
    return errorEnvelope(
      'BINARY_FILE',
      `${outcome.url} is not text (${outcome.contentType || 'no content type'}, ${outcome.bytes.byteLength} bytes)`,
    );
  }
  if (outcome.status >= 400) {
    return errorEnvelope('EXECUTION_ERROR', `${outcome.url} answered ${outcome.status}: ${clip(content, 500)}`);
  }
  const shown = clip(content, WEB_FETCH_MAX_CHARS);
  const truncated = outcome.cut || shown.length < content.length;
  const notes = [
    outcome.cut ? `the page was cut at ${options.limits.maxBytes.toLocaleString('en-US')} bytes` : '',
    shown.length < content.length
      ? `the Markdown was cut at ${WEB_FETCH_MAX_CHARS.toLocaleString('en-US')} characters`
      : '',
  ].filter((note) => note !== '');
  const head = `Fetched ${outcome.url} (${outcome.status}, ${outcome.contentType || 'no content type'})${
    notes.length > 0 ? ` — ${notes.join('; ')}` : ''
  }\nPrompt: ${prompt}\n\n`;
  return toolResult(
    { url: outcome.url, status: outcome.status, content: shown, ...(truncated ? { truncated: true } : {}) },
    `${head}${shown}`,
    truncated ? { status: 'partial' } : {},
  );
}

function numberFrom(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

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
    prepare(input, ctx) {
      const { url: raw, prompt } = input as { url: string; prompt: string };
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return Promise.resolve(failedPlan(errorEnvelope('INVALID_PARAM', `"${raw}" is not a URL`)));
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return Promise.resolve(
          failedPlan(errorEnvelope('INVALID_PARAM', `${url.protocol} URLs cannot be fetched; only http and https`)),
        );
      }
      const request = { tool: WEB_FETCH, title: `WebFetch(domain:${hostOf(url)})`, detail: url.href, input };
      const env = fixed ?? ctx.env ?? sessionEnvironment();
      const limits: WebFetchLimits = {
        ...DEFAULT_WEB_FETCH_LIMITS,
        timeoutMs: numberFrom(env, 'MCA_WEBFETCH_TIMEOUT_MS', DEFAULT_WEB_FETCH_LIMITS.timeoutMs),
        maxBytes: numberFrom(env, 'MCA_WEBFETCH_MAX_BYTES', DEFAULT_WEB_FETCH_LIMITS.maxBytes),
      };
      const options = { limits, allowedPrivate: privateHostsAllowed(env), env };
      return Promise.resolve(readyPlan(request, () => fetchAsMarkdown(url, prompt, ctx.signal, options)));
    },
  });
}
