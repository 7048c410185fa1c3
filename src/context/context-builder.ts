/**
 * ContextBuilder (spec A1, D4; DESIGN.md "Prompt"): assembles one model request from the layers, in this order:
 *   l1          system prompt + tool prompts (stable prefix)
 *   l2          "# Project Rules and Memory" + each memory file under its path (memory-files.ts), when any
 *   l3          "# Conversation history" + closed rounds and summaries as an `[role] …` transcript (native tool
 *               use: without text-protocol forms, transcript.ts), each whole tool result in full (`fullResults`);
 *               then the live rounds (text protocol: rounds closed since the last compaction), each exactly as its
 *               turn was sent, so the cached prefix only grows between compactions (DESIGN.md "Turn and round")
 *   input       "# Request" + this turn's preprocessed user input
 *   scratchpad  "# Work on this request" + one `Thought/Action` + `Observation:` block per step
 *   todos       "# Todo recap" + the one-line recap, only when there are todos
 * Empty parts are skipped. Parts and request segments are separated by one blank line (`PART_SEPARATOR`);
 * providers that concatenate segments must join them with it so the request equals `render()`.
 */
import type { ImagePart, PromptSegment, TurnMessage } from '../providers/types.js';
import { imagesTokens } from '../text/image-part.js';
import { imagesWithinRequest } from './image-budget.js';
import type { Message } from './message.js';
import {
  liveRoundMessages,
  liveTurnMessages,
  nativeTurnMessages,
  type LiveNativeRound,
  type NativeStep,
} from './native-turn.js';
import { estimateTokens } from './token-budget.js';
import { renderTranscriptAs, TRANSCRIPT_SEPARATOR, type FullResults, type TranscriptForm } from './transcript.js';

export { composeSystemLayer } from './system-layer.js';

export type ContextPartId = 'l1' | 'l2' | 'l3' | 'input' | 'scratchpad' | 'todos';

export interface ContextPart {
  id: ContextPartId;
  text: string;
  tokens: number;
  /** l3 only: the share of the tokens taken by archived summaries. */
  summaryTokens?: number;
  /** l3: the rounds it shows (transcript and live), by their user message's round number. */
  rounds?: number[];
  /**
   * l3 only: the text split into one piece per summary and per closed round (joined, they equal `text`). Each
   * becomes its own request block, so closing a round appends a block and the cached prefix of the previous
   * request stays a block-aligned prefix of the next one.
   */
  segments?: string[];
}

export interface ScratchpadStep {
  /** The model's text for the step: "Thought: … Action: …". */
  assistant: string;
  /** The full observation text the tool produced (absent for a step without a tool call). */
  observation?: string;
  /** The compressed JSON stored in history, used when this step's full observation is degraded (level 1). */
  compressed?: string;
  /** The tool the step called, for one-line degraded results. */
  tool?: string;
  /** Native tool use: the reply and call of this step, so the turn renders as real assistant/user messages. */
  native?: NativeStep;
  /** The full result's reference in tool memory, when it was stored there. */
  ref?: string;
  /** The result's images: sent (and counted) only while the step's observation is shown in full. */
  images?: readonly ImagePart[];
}

/** The request of native tool use: the text layers, then this turn as messages, then the tail (todo recap). */
export interface NativeRequestParts {
  system: PromptSegment[];
  user: PromptSegment[];
  turn: TurnMessage[];
  tail: PromptSegment[];
}

/**
 * A round closed since the last compaction, as its turn was sent (text protocol): the request block, each step's
 * block and the closing reply. Keyed by the round's user message, so a rewritten history never shows a stale one.
 */
export interface LiveRound {
  /** The text blocks as sent (text protocol), or the native messages' text (measured, rendered by `render()`). */
  segments: readonly string[];
  /** Native tool use: the request block and the round's messages (its replies, results and closing reply). */
  native?: LiveNativeRound;
}

export interface BuildInput {
  /** HistoryManager.closedHistory(): summaries and closed rounds. */
  history: readonly Message[];
  /** Where whole tool results are found in full (absent: every result shows its stored form). */
  fullResults?: FullResults;
  /** Closed rounds shown as their turn was sent, by their user message (the text protocol between compactions). */
  liveRounds?: ReadonlyMap<Message, LiveRound>;
  scratchpad: readonly ScratchpadStep[];
  question: string;
  /** Images attached to this turn's input (`@shot.png`, a paste), sent after its text. */
  questionImages?: readonly ImagePart[];
  todoRecap?: string;
  /** Degradation level 1: only the newest N steps show full observations. Default: all. */
  fullObservationSteps?: number;
}

export interface BuiltContext {
  parts: ContextPart[];
  render(): string;
  toRequestSegments(): { system: PromptSegment[]; user: PromptSegment[] };
  /** Native tool use: the same layers with the current turn as assistant/user messages (steps need `native`). */
  toNativeRequest(): NativeRequestParts;
  /**
   * What of this request the closed history fills, as sent: the system blocks, the L3 blocks and (native tool use
   * with live rounds) the first live round's request block and the live rounds' messages. A summary asks on it.
   */
  closedPrefix(native: boolean): { system: PromptSegment[]; history: PromptSegment[]; turn?: TurnMessage[] };
  totalTokens: number;
}

export const PART_SEPARATOR = '\n\n';
export const HEADINGS = Object.freeze({
  history: '# Conversation history',
  input: '# Request',
  scratchpad: '# Work on this request',
  todos: '# Todo recap',
});

/**
 * The forms of a step made by earlier builds, by step object (steps are never changed in place): a long turn shows
 * every earlier step again at each build, and a new string each time made that build, and everything comparing its
 * result with the previous request's, grow with the turn (issue 42). Slots: text protocol short, full; native short, full.
 */
const stepForms = new WeakMap<ScratchpadStep, Array<string | undefined>>();

function stepForm(step: ScratchpadStep, slot: number, make: () => string): string {
  let forms = stepForms.get(step);
  if (forms === undefined) stepForms.set(step, (forms = []));
  return (forms[slot] ??= make());
}

/** Forgets a step's full forms: it shows a shorter form for the rest of its turn (live-rounds.ts `releaseShrunk`). */
export function forgetFullForms(step: ScratchpadStep): void {
  const forms = stepForms.get(step);
  if (forms !== undefined) forms[1] = forms[3] = undefined;
}

/** One scratchpad step: the model's text, then its observation (full, or compressed JSON when degraded). */
export function renderStep(step: ScratchpadStep, full: boolean): string {
  return stepForm(step, full ? 1 : 0, () => {
    const assistant = step.assistant.trimEnd();
    if (!full && step.compressed !== undefined) return `${assistant}\nObservation (compressed): ${step.compressed}`;
    if (step.observation !== undefined) return `${assistant}\nObservation: ${step.observation}`;
    if (step.compressed !== undefined) return `${assistant}\nObservation (compressed): ${step.compressed}`;
    return assistant;
  });
}

/** A step's observation as a native result shows it: full, or the compressed JSON when degraded. */
function nativeObservation(step: ScratchpadStep, full: boolean): string {
  return stepForm(step, full ? 3 : 2, () => {
    if (!full && step.compressed !== undefined) return `(compressed) ${step.compressed}`;
    return step.observation ?? (step.compressed !== undefined ? `(compressed) ${step.compressed}` : '');
  });
}

/** Groups history into cache units: each summary alone, each round from its user message on. */
function transcriptUnitsOf(history: readonly Message[]): Message[][] {
  const units: Message[][] = [];
  let current: Message[] | undefined;
  for (const message of history) {
    if (message.role === 'summary' || message.role === 'user' || current === undefined) {
      current = [];
      units.push(current);
    }
    current.push(message);
    if (message.role === 'summary') current = undefined;
  }
  return units;
}

function part(id: ContextPartId, text: string, extra: Partial<ContextPart> = {}): ContextPart {
  return { id, text, tokens: estimateTokens(text), ...extra };
}

/**
 * A part whose text is its segments joined, built only when read (render, /context): a build only measures it, so
 * it never copies the whole history into one string (ContextBuilder.build stays linear in time and memory).
 */
function lazyPart(
  id: ContextPartId,
  segments: readonly string[],
  chars: number,
  extra: Partial<ContextPart>,
): ContextPart {
  let text: string | undefined;
  return {
    id,
    get text(): string {
      text ??= segments.join(TRANSCRIPT_SEPARATOR);
      return text;
    },
    tokens: Math.floor(chars / 3),
    ...extra,
  };
}

/** A rendered transcript unit, reused while the unit holds the same message objects and the same full results. */
interface RenderedUnit {
  messages: readonly Message[];
  full: FullResults | undefined;
  text: string;
}

function sameUnit(cached: RenderedUnit, unit: readonly Message[], full: FullResults | undefined): boolean {
  if (cached.full !== full || cached.messages.length !== unit.length) return false;
  for (let index = 0; index < unit.length; index += 1) if (cached.messages[index] !== unit[index]) return false;
  return true;
}

export class ContextBuilder {
  private readonly systemPrompt: string | (() => string);
  private readonly memory: { read(): string | undefined } | undefined;
  private readonly toolTokens: number | (() => number);
  /** How L3 renders closed rounds: the E1 transcript, or native tool use's form without `Action:` text. */
  readonly historyForm: TranscriptForm;
  /**
   * Rendered units by their first message. Messages are never changed in place (a compaction writes new objects),
   * so a unit whose message objects are the same renders the same: each build renders only new or rewritten rounds.
   */
  private readonly units = new WeakMap<Message, RenderedUnit>();

  /**
   * `systemPrompt` may be a function when L1 follows session state (the environment block names the model).
   * `memory` renders the whole L2 text (the memory files, each labelled with its path; see memory-files.ts).
   * `toolDefinitionTokens`: native tool use sends the tools as definitions beside the system text; their estimate
   * counts into L1 (and every budget), though the text does not carry them; a function when the tool list can
   * change while the session runs.
   * `historyForm`: `native` for native tool use (transcript.ts), `text` (default) for the text protocol.
   */
  constructor(options: {
    systemPrompt: string | (() => string);
    memory?: { read(): string | undefined };
    toolDefinitionTokens?: number | (() => number);
    historyForm?: TranscriptForm;
  }) {
    this.historyForm = options.historyForm ?? 'text';
    this.systemPrompt = options.systemPrompt;
    this.memory = options.memory;
    this.toolTokens = options.toolDefinitionTokens ?? 0;
  }

  private renderUnit(unit: readonly Message[], full: FullResults | undefined): string {
    const first = unit[0] as Message;
    const cached = this.units.get(first);
    if (cached !== undefined && sameUnit(cached, unit, full)) return cached.text;
    const text = renderTranscriptAs(unit, this.historyForm, full);
    this.units.set(first, { messages: unit, full, text });
    return text;
  }

  build(input: BuildInput): BuiltContext {
    const system = typeof this.systemPrompt === 'function' ? this.systemPrompt() : this.systemPrompt;
    const toolTokens = typeof this.toolTokens === 'function' ? this.toolTokens() : this.toolTokens;
    const l1 = system.trim() === '' ? undefined : part('l1', system);
    if (l1) l1.tokens += toolTokens;
    const memory = this.memory?.read();
    const l2 = memory === undefined || memory.trim() === '' ? undefined : part('l2', memory);

    let l3: ContextPart | undefined;
    let l3Chars = 0;
    // Native tool use: live rounds go out as messages after the transcript blocks, not as blocks of their own.
    const nativeLive: LiveNativeRound[] = [];
    let transcriptSegments = 0;
    if (input.history.length > 0) {
      let summaryTokens = 0;
      const segments: string[] = [];
      const rounds: number[] = [];
      let transcriptUnits = 0;
      let chars = 0;
      for (const unit of transcriptUnitsOf(input.history)) {
        const first = unit[0] as Message;
        const live = first.role === 'user' ? input.liveRounds?.get(first) : undefined;
        if (first.role !== 'summary') rounds.push(first.metadata.round);
        if (live !== undefined) {
          if (live.native !== undefined) nativeLive.push(live.native);
          for (const segment of live.segments) {
            segments.push(segment);
            chars += segment.length;
          }
          continue;
        }
        let text = this.renderUnit(unit, input.fullResults);
        if (first.role === 'summary') summaryTokens += estimateTokens(text);
        // The heading opens the transcript part; live rounds come after it and carry their own headings.
        if (transcriptUnits === 0) text = `${HEADINGS.history}\n\n${text}`;
        segments.push(text);
        chars += text.length;
        transcriptUnits += 1;
        transcriptSegments = segments.length;
      }
      if (segments.length > 0) {
        chars += TRANSCRIPT_SEPARATOR.length * (segments.length - 1);
        l3 = lazyPart('l3', segments, chars, { summaryTokens, segments, rounds });
        l3Chars = chars;
      }
    }

    const steps = input.scratchpad;
    const fullFrom = steps.length - Math.max(0, input.fullObservationSteps ?? steps.length);
    // A step's images ride with its full observation only (a degraded step keeps the text reference), within the
    // request's image caps (image-budget.ts).
    const sent = imagesWithinRequest({
      question: input.questionImages ?? [],
      steps: steps.map((step, index) => (index >= fullFrom ? (step.images ?? []) : [])),
    });
    const questionImages = sent.question;
    const stepImages = sent.steps;
    const question =
      input.question.trim() === '' && questionImages.length === 0
        ? undefined
        : part('input', `${HEADINGS.input}\n\n${input.question}`);
    if (question) question.tokens += imagesTokens(questionImages);

    const stepTexts = steps.map((step, index) => renderStep(step, index >= fullFrom));
    const nativeSteps = steps.flatMap((step, index) =>
      step.native
        ? [{ native: step.native, observation: nativeObservation(step, index >= fullFrom), images: stepImages[index] }]
        : [],
    );
    if (stepTexts.length > 0) stepTexts[0] = `${HEADINGS.scratchpad}\n\n${stepTexts[0]}`;
    // Measured, not joined: a long turn's steps are not copied into one string at every build (issue 42).
    const scratchpadChars =
      stepTexts.reduce((sum, text) => sum + text.length, 0) + PART_SEPARATOR.length * Math.max(0, stepTexts.length - 1);
    const scratchpad =
      stepTexts.length > 0 ? lazyPart('scratchpad', stepTexts, scratchpadChars, { segments: stepTexts }) : undefined;
    const imageTokens = imagesTokens(stepImages.flat()) + (question ? imagesTokens(questionImages) : 0);
    if (scratchpad) scratchpad.tokens += imagesTokens(stepImages.flat());

    const recap = input.todoRecap?.trim();
    const todos = recap ? part('todos', `${HEADINGS.todos}\n\n${recap}`) : undefined;

    const parts = [l1, l2, l3, question, scratchpad, todos].filter((entry): entry is ContextPart => !!entry);
    const chars = parts.reduce(
      (sum, entry) => sum + (entry === l3 ? l3Chars : entry === scratchpad ? scratchpadChars : entry.text.length),
      0,
    );
    // estimateTokens(render()) without building the string.
    const totalTokens =
      Math.floor((chars + PART_SEPARATOR.length * Math.max(0, parts.length - 1)) / 3) +
      (l1 ? toolTokens : 0) +
      imageTokens;

    /** L1 and L2 as system segments, L3 (one segment per unit) and the input as user segments. */
    const layers = (native = false): { system: PromptSegment[]; user: PromptSegment[] } => {
      const system: PromptSegment[] = [];
      if (l1) system.push({ text: l1.text, cacheBreakpoint: true });
      if (l2) system.push({ text: l2.text });
      const user: PromptSegment[] = [];
      const all = l3?.segments ?? (l3 ? [l3.text] : []);
      const l3Segments = native && nativeLive.length > 0 ? all.slice(0, transcriptSegments) : all;
      l3Segments.forEach((text, index) => {
        user.push(index === l3Segments.length - 1 ? { text, cacheBreakpoint: true } : { text });
      });
      // Native live rounds: the first one's request ends the first user message; the current one is a message.
      const firstLive = native ? nativeLive[0] : undefined;
      if (firstLive !== undefined) user.push({ text: firstLive.question });
      else if (question)
        user.push(
          questionImages.length > 0 ? { text: question.text, images: questionImages } : { text: question.text },
        );
      return { system, user };
    };

    return {
      parts,
      totalTokens,
      render: () => parts.map((entry) => entry.text).join(PART_SEPARATOR),
      toNativeRequest: () => {
        const { system, user } = layers(true);
        const current = nativeTurnMessages(nativeSteps);
        const turn = nativeLive.length > 0 ? liveTurnMessages(nativeLive, question?.text, current) : current;
        const recap = todos ? [{ text: todos.text }] : [];
        // With no turn messages yet the recap ends the first user message, as in the text protocol.
        return turn.length > 0
          ? { system, user, turn, tail: recap }
          : { system, user: [...user, ...recap], turn, tail: [] };
      },
      closedPrefix: (native) => {
        const { system, user } = layers(native);
        if (!native || nativeLive.length === 0) return { system, history: user.slice(0, l3?.segments?.length ?? 0) };
        return { system, history: user.slice(0, transcriptSegments + 1), turn: liveRoundMessages(nativeLive) };
      },
      toRequestSegments: () => {
        const { system, user } = layers();
        stepTexts.forEach((text, index) => {
          const images = stepImages[index] ?? [];
          const segment: PromptSegment = images.length > 0 ? { text, images } : { text };
          user.push(index === stepTexts.length - 1 ? { ...segment, cacheBreakpoint: true } : segment);
        });
        if (todos) user.push({ text: todos.text });
        return { system, user };
      },
    };
  }
}
