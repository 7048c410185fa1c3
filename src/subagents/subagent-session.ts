/**
 * One subagent's nested session: its own history, context engine (builder, budget, compaction) and system prompt,
 * its own tool list and model, a CodeAgent of its own. Its messages go to a sidecar transcript beside the
 * session file (`<session-id>.agents/<call-id>.jsonl`), never into the parent's history; its full tool results
 * go to the session's tool memory, so the parent can Recall them by the references the transcript holds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CodeAgent } from '../loop/code-agent.js';
import type { EnvironmentView } from '../config/child-environment.js';
import type { CallGate } from '../loop/controller.js';
import type { Config } from '../config/config.js';
import { ContextBuilder } from '../context/context-builder.js';
import { ContextEngine } from '../context/context-engine.js';
import { detectEnvironment, renderEnvironment } from '../context/environment.js';
import { HistoryManager } from '../context/history-manager.js';
import { createProjectFsView } from '../context/input-preprocessor.js';
import { MemoryFiles } from '../context/memory-files.js';
import { loadPrompt } from '../context/prompt-loader.js';
import { SummaryCompressor } from '../context/summary-compressor.js';
import { composeProtocolLayer, CONTEXT_PLACEHOLDER, PROTOCOL_PLACEHOLDER } from '../context/system-layer.js';
import { estimateTokens } from '../context/token-budget.js';
import type { ModelProvider } from '../providers/types.js';
import { SESSION_FORMAT_VERSION } from '../store/session-records.js';
import { JsonlSessionWriter } from '../store/session-writer.js';
import { FileStateRecord } from '../tools/files/file-state.js';
import { TodoStore } from '../tools/planning/todo-store.js';
import type { ToolMemory } from '../tools/memory/tool-memory.js';
import type { AgentDefinition } from './agent-definition.js';
import type { SubagentRegistry } from './subagent-tools.js';

export interface NestedSessionOptions {
  definition: AgentDefinition;
  config: Config;
  provider: ModelProvider;
  registry: SubagentRegistry;
  /** The session's decision point as the subagent meets it, and the rules' path screen. */
  gate: CallGate;
  projectRoot: string;
  trusted: boolean;
  secrets: readonly string[];
  /** The model the subagent runs on (its definition's, or the session's for `inherit`). */
  model: string;
  /** The sidecar transcript's path. */
  transcriptPath: string;
  /** The session's tool memory (full results stored by reference). */
  toolMemory: ToolMemory | undefined;
  /** Text put after the definition's prompt (the skills listing when the subagent has the Skill tool). */
  systemExtra: string | undefined;
  /** The runtime's environment, as the parent's tools have it. */
  env: EnvironmentView | undefined;
}

/** The subagent's L1: its definition's prompt with the protocol's sections, its tools (text protocol), where it runs. */
function systemPromptOf(options: NestedSessionOptions): string {
  const { definition, config, registry } = options;
  const protocol = config.toolProtocol;
  const template = [definition.prompt, options.systemExtra, PROTOCOL_PLACEHOLDER, CONTEXT_PLACEHOLDER]
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .join('\n\n');
  const layer = composeProtocolLayer(
    `${template}\n\n`,
    { name: protocol, section: loadPrompt(`protocol-${protocol}.md`) },
    registry.prompts(),
  );
  return `${layer}\n\n${renderEnvironment(detectEnvironment(options.projectRoot, options.model))}`;
}

/** A CodeAgent for one subagent run; `close()` it when the run ends. */
export function createNestedSession(options: NestedSessionOptions): CodeAgent {
  const { definition, config, provider, registry, projectRoot } = options;
  const native = config.toolProtocol === 'native';
  mkdirSync(join(options.transcriptPath, '..'), { recursive: true, mode: 0o700 });
  const writer = new JsonlSessionWriter(`subagent-${definition.name}`, options.transcriptPath, options.secrets);
  // The meta line names the subagent and its model (what /agents and the verbose transcript show).
  writer.writeRecord({
    type: 'meta',
    version: SESSION_FORMAT_VERSION,
    sessionId: writer.sessionId,
    projectRoot,
    createdAt: new Date().toISOString(),
    model: options.model,
  });
  const history = new HistoryManager({ minRetainRounds: config.minRetainRounds }, []);
  history.onAppend((message) => writer.appendMessage(message));
  history.onSnapshot((list) => writer.writeSnapshot([...list]));
  const fileState = new FileStateRecord();
  const memory = new MemoryFiles({
    projectRoot,
    mcaHome: config.mcaHome,
    maxChars: config.codeLawMaxChars,
    trusted: options.trusted,
    touched: () => fileState.paths(),
  });
  const system = systemPromptOf(options);
  const subConfig: Config = {
    ...config,
    maxSteps: definition.maxTurns ?? config.maxSteps,
    permissionMode: definition.permissionMode === 'plan' ? 'plan' : config.permissionMode,
  };
  const context = new ContextEngine({
    history,
    builder: new ContextBuilder({
      systemPrompt: system,
      memory,
      toolDefinitionTokens: () => (native ? estimateTokens(JSON.stringify(registry.toolSpecs())) : 0),
      historyForm: native ? 'native' : 'text',
    }),
    summarizer: new SummaryCompressor({
      provider,
      model: config.summaryModel ?? options.model,
      timeoutMs: config.summaryTimeoutMs,
      contextWindow: config.contextWindow,
      template: loadPrompt('summary.md'),
    }),
    contextWindow: config.contextWindow,
    compressionThreshold: config.compressionThreshold,
    maxOutputTokens: config.maxOutputTokens,
    ...(native ? { requestTools: () => registry.toolSpecs() } : {}),
    ...(options.toolMemory ? { toolMemory: options.toolMemory } : {}),
  });
  const agent = new CodeAgent({
    config: subConfig,
    provider,
    registry,
    context,
    settings: { model: options.model, mode: subConfig.permissionMode },
    session: writer,
    projectRoot,
    fsView: createProjectFsView(projectRoot),
    todos: new TodoStore(),
    fileState,
    memory,
    ...(native ? { toolSpecs: () => registry.toolSpecs() } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  agent.setDecisionPoint(options.gate);
  return agent;
}
