/**
 * The summary request (spec 004 "summary on the cached prefix", issue 13 deliverable 3). When the engine knows the
 * last request it sent, the summary asks for one more turn on exactly that prefix: the same system blocks and the
 * same L3 blocks, unchanged (so the provider's prompt cache already holds them), then one instruction block (the
 * A5 template) that names which rounds above to archive. Rounds the prefix does not hold word for word (closed
 * after it was sent, or rewritten since) are written into the instruction block. Without a prefix, or when the
 * prefix request would not fit the window, the standalone prompt (SUMMARY_SYSTEM + the whole transcript) is sent.
 * Provider-agnostic: segments in, segments out.
 */
import type { PromptSegment, ToolSpec, TurnMessage } from '../providers/types.js';
import type { BuiltContext } from './context-builder.js';
import { turnMessageText } from './native-turn.js';
import { toRounds, type Message } from './message.js';
import { estimateTokens } from './token-budget.js';
import { renderTranscript, renderTranscriptAs, type TranscriptForm } from './transcript.js';

/** The parts of the last request the summary may reuse, as they were sent. */
export interface SummaryPrefix {
  /** The request's system blocks (L1, L2). */
  system: readonly PromptSegment[];
  /** The request's L3 blocks: one per summary and per closed round. */
  history: readonly PromptSegment[];
  /**
   * Native tool use: the `tools` the request carried. They come first in the provider's cache key (tools, then
   * system, then messages), so a summary request without them would read nothing from the cache.
   */
  tools?: readonly ToolSpec[];
  /** How the L3 blocks rendered the rounds (default `text`), so rounds are found in them as they were sent. */
  form?: TranscriptForm;
  /**
   * The rounds the L3 blocks show (by round number), whole results in full or as their turn was sent: with it, a
   * round counts as above when it is listed; without it, when its transcript is found in the blocks.
   */
  rounds?: readonly number[];
  /** Native tool use: the live rounds' messages the request sent after the history blocks. */
  turn?: readonly TurnMessage[];
}

export interface SummaryRequestParts {
  system: PromptSegment[];
  user: PromptSegment[];
  /** On a native prefix with live rounds: their messages, then the instruction as the last user message. */
  turn?: TurnMessage[];
  /** True when the request starts with the last request's system and L3 blocks. */
  onPrefix: boolean;
  /** The last request's tools, sent again unchanged (on the prefix only); the model is told not to call them. */
  tools?: ToolSpec[];
}

/** Said before the template when the prefix carries tools: the summary is text, never a tool call. */
export const NO_TOOL_CALLS = 'Do not call any tool for this request: answer with the summary text only.';

/** The closing line of prompts/summary.md: the instruction block of every summary request ends with it. */
export const SUMMARY_CLOSING = 'Start your reply with `## 📌 Archived Session Summary`';

/** True for a summary request, on the prefix or standalone (by its last user block). */
export function isSummaryRequest(request: {
  user: readonly PromptSegment[];
  turn?: readonly TurnMessage[] | undefined;
}): boolean {
  const last = request.turn?.at(-1);
  if (last?.role === 'user' && last.text?.includes(SUMMARY_CLOSING) === true) return true;
  return request.user.at(-1)?.text.includes(SUMMARY_CLOSING) === true;
}

export const SUMMARY_SYSTEM =
  'You archive finished parts of a coding session for a coding agent called mca. ' +
  'You answer with the requested Markdown summary only.';

function firstLine(text: string): string {
  const line = text.split('\n').find((entry) => entry.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * The transcript field of the template when the rounds are above: which rounds (from the start of the history to
 * the named last one) and, verbatim, those the prefix lacks.
 */
function scopeOnPrefix(archived: readonly Message[], prefixText: string, prefix: SummaryPrefix): string | undefined {
  const rounds = toRounds(archived);
  const last = rounds.at(-1)?.messages.find((message) => message.role === 'user');
  if (last === undefined) return undefined;
  const form = prefix.form ?? 'text';
  const asSent = (messages: readonly Message[]) => renderTranscriptAs(messages, form);
  const listed = prefix.rounds === undefined ? undefined : new Set(prefix.rounds);
  const missing = rounds.filter((round) =>
    listed === undefined ? !prefixText.includes(asSent(round.messages)) : !listed.has(round.round),
  );
  // Nothing of the archive is above: the prefix would only add tokens.
  if (missing.length === rounds.length) return undefined;
  const scope =
    'The transcript to archive is the conversation history above, from its start up to and including the round ' +
    `whose user request begins: "${firstLine(last.content)}". The rounds after that one stay in the ` +
    'agent context verbatim and are not part of this archive; earlier [system] summaries are already archived.';
  if (missing.length === 0) return scope;
  return `${scope}\nThese rounds of the archive are not shown above; they belong to it too:\n\n${missing
    .map((round) => asSent(round.messages))
    .join('\n\n')}`;
}

export function summaryRequestParts(
  archived: readonly Message[],
  fill: (transcript: string) => string,
  limits: { prefix?: SummaryPrefix | undefined; contextWindow?: number | undefined; maxTokens: number },
): SummaryRequestParts {
  const { prefix } = limits;
  if (prefix !== undefined && prefix.history.length > 0) {
    const prefixText = prefix.history.map((segment) => segment.text).join('\n');
    const scope = scopeOnPrefix(archived, prefixText, prefix);
    if (scope !== undefined) {
      const tools = prefix.tools !== undefined && prefix.tools.length > 0 ? [...prefix.tools] : undefined;
      const instruction = tools ? `${NO_TOOL_CALLS}\n\n${fill(scope)}` : fill(scope);
      const turn = prefix.turn ?? [];
      const chars =
        [...prefix.system, ...prefix.history].reduce((sum, segment) => sum + segment.text.length, 0) +
        turn.reduce((sum, message) => sum + turnMessageText(message).length, 0) +
        (tools ? JSON.stringify(tools).length : 0);
      const needed = estimateTokens(instruction) + Math.floor(chars / 3) + limits.maxTokens;
      if (limits.contextWindow === undefined || needed <= limits.contextWindow) {
        // Copies, so a later change to the caller's record cannot alter a request in flight.
        const system = prefix.system.map((segment) => ({ ...segment }));
        const history = prefix.history.map((segment) => ({ ...segment }));
        const tail = tools ? { tools } : {};
        if (turn.length > 0) {
          const asked: TurnMessage = { role: 'user', results: [], text: instruction, cacheBreakpoint: true };
          return { system, user: history, turn: [...turn, asked], onPrefix: true, ...tail };
        }
        return { system, user: [...history, { text: instruction }], onPrefix: true, ...tail };
      }
    }
  }
  return { system: [{ text: SUMMARY_SYSTEM }], user: [{ text: fill(renderTranscript(archived)) }], onPrefix: false };
}

/** The system blocks and the closed history's blocks (and live messages) of a built request, as sent. */
export function summaryPrefixOf(
  context: BuiltContext,
  tools: readonly ToolSpec[] | undefined,
  form: SummaryPrefix['form'],
): SummaryPrefix {
  const { system, history, turn } = context.closedPrefix(form === 'native');
  const l3 = context.parts.find((part) => part.id === 'l3');
  const rounds = l3?.rounds ? { rounds: l3.rounds } : {};
  return {
    system,
    history,
    ...(turn && turn.length > 0 ? { turn } : {}),
    ...(tools ? { tools } : {}),
    ...(form ? { form } : {}),
    ...rounds,
  };
}
