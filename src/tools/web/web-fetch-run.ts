/**
 * WebFetch's working code: the plan (the URL's check and the domain question), the fetch, the Markdown conversion
 * and the result. Loaded with the first call of a tool (tool-code.ts); the definition and the result forms stay in
 * web-fetch.ts.
 */
import { sessionEnvironment, type EnvironmentView } from '../../config/child-environment.js';
import { clip } from '../../text/json-guards.js';
import { failedPlan, readyPlan, type ToolPlan } from '../registry/define-tool.js';
import { errorEnvelope, type ToolEnvelope } from '../registry/envelope.js';
import { toolResult } from '../registry/results.js';
import type { ToolContext } from '../registry/tool-context.js';
import { hostOf, privateHostsAllowed } from './web-fetch-address.js';
import { DEFAULT_WEB_FETCH_LIMITS, fetchPage, type WebFetchLimits } from './web-fetch-get.js';
import { runInWorker, toolDeadlineMs } from '../walking/walk-runner.js';

/** The tool's name (web-fetch.ts's WEB_FETCH; not imported from there, which loads this module). */
const WEB_FETCH = 'WebFetch';
/** Characters of the page the model gets in the current step. */
export const WEB_FETCH_MAX_CHARS = 100_000;

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

/** The plan of a call: `fixed` is the environment the tool was made with, if any (createWebFetchTool). */
export function prepareWebFetch(
  input: unknown,
  ctx: ToolContext,
  fixed: EnvironmentView | undefined,
): Promise<ToolPlan> {
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
}
