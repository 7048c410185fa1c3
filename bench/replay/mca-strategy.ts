/**
 * The `mca` strategy: mca's context engine behind the bench's one seam (mca/replay-engine.ts). This file only
 * translates: the recorded step becomes mca's reply (`Thought: …` / `Action: Tool[{mapped input}]`), the engine's
 * request and events become the driver's, and the summarizer's recorded requests become priced summary calls.
 */
import { formatAction } from '../../src/loop/react-protocol.js';
import { loadPrompt } from '../../src/context/prompt-loader.js';
import { composeProtocolLayer } from '../../src/context/system-layer.js';
import { estimateTokens } from '../../src/context/token-budget.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { RecordingSummarizer } from './mca/recording-summarizer.js';
import { createReplayEngine, type ReplayContextEngine } from './mca/replay-engine.js';
import type { ModelCall, ReplayStep, Strategy, StrategyEvent, StrategyName, StrategyOptions } from './strategy.js';

/** The model's reply in mca's ReAct form. */
export function mcaReply(step: ReplayStep): string {
  const thought = `Thought: ${step.thought.trim() || '(no recorded thought)'}`;
  if (step.action !== undefined)
    return `${thought}\n${formatAction({ tool: step.action.tool, input: step.action.input })}`;
  return `${thought}\nAction: Finish[${step.answer ?? ''}]`;
}

/**
 * L1 of native tool use: the system prompt with the tool-calling section, then the `tools` definitions as the JSON
 * the API receives (they replace the tool prompts of the text protocol's L1).
 */
export function nativeSystemText(): string {
  const registry = createDefaultRegistry();
  const system = composeProtocolLayer(
    loadPrompt('system'),
    { name: 'native', section: loadPrompt('protocol-native') },
    [],
  );
  return `${system}\n\n${JSON.stringify(registry.toolSpecs())}`;
}

export class McaStrategy implements Strategy {
  readonly name: StrategyName;
  private readonly summarizer: RecordingSummarizer;
  private readonly engine: ReplayContextEngine;
  private readonly native: boolean;
  private finished = false;

  constructor(options: StrategyOptions, protocol: 'native' | 'text' = 'text') {
    this.summarizer = new RecordingSummarizer(options.contextWindow);
    this.native = protocol === 'native';
    this.name = this.native ? 'mca-native' : 'mca';
    this.engine = createReplayEngine({
      contextWindow: options.contextWindow,
      systemText: this.native ? nativeSystemText() : options.systemText,
      maxOutputTokens: options.maxOutputTokens,
      summarizer: this.summarizer,
      protocol,
    });
  }

  async startTurn(text: string): Promise<StrategyEvent[]> {
    this.finished = false;
    const events = await this.engine.beginTurn(text);
    return [...this.summarizer.drain(), ...events];
  }

  async nextCall(): Promise<{ call: ModelCall; events: StrategyEvent[] }> {
    const prepared = await this.engine.prepareStep();
    return {
      call: { segments: prepared.segments, tokens: prepared.tokens },
      events: [...this.summarizer.drain(), ...prepared.events],
    };
  }

  record(step: ReplayStep, call: ModelCall): number {
    const reply = mcaReply(step);
    // Native: the reply is its text plus the call's JSON (no labels); a final answer is the answer alone.
    const nativeText = step.thought.trim();
    const written = this.native
      ? step.action === undefined
        ? (step.answer ?? '')
        : `${nativeText}${JSON.stringify({ name: step.action.tool, input: step.action.input })}`
      : reply;
    const outputTokens = estimateTokens(written);
    const usage = { inputTokens: call.tokens, outputTokens };
    const action = step.action;
    this.engine.recordStep(
      action === undefined
        ? { reply, usage }
        : {
            reply,
            usage,
            action: { tool: action.tool, input: action.input, envelope: action.envelope },
            ...(this.native ? { nativeText } : {}),
          },
    );
    if (action === undefined) this.finished = true;
    return outputTokens;
  }

  endTurn(): void {
    // A final answer closed the round itself; a turn the person ends after a tool step closes as answered.
    if (!this.finished) this.engine.closeTurn('answer');
  }
}
