/**
 * The composition of one project's sessions: shared provider, tools and prompts; one CodeAgent per session,
 * persisted through the session store. Both front ends get their controller from here.
 */
import { isAbsolute, join, resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { detectEnvironment, renderEnvironment } from '../context/environment.js';
import { ContextBuilder } from '../context/context-builder.js';
import {
  composeProtocolLayer,
  replaceSystemIdentity,
  type SystemPromptCustomization,
} from '../context/system-layer.js';
import { ContextEngine } from '../context/context-engine.js';
import { HistoryManager } from '../context/history-manager.js';
import { MemoryFiles } from '../context/memory-files.js';
import { createProjectFsView } from '../context/input-preprocessor.js';
import type { Message } from '../context/message.js';
import { loadPrompt } from '../context/prompt-loader.js';
import { SummaryCompressor } from '../context/summary-compressor.js';
import { estimateTokens } from '../context/token-budget.js';
import type { EnvironmentView } from '../config/child-environment.js';
import type { PathCheck } from '../permissions/path-screen.js';
import type { ModelProvider, ToolSpec } from '../providers/types.js';
import type { SessionStore, SessionWriter } from '../store/session-store.js';
import { FileStateRecord } from '../tools/files/file-state.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { TodoStore } from '../tools/planning/todo-store.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';
import type { WorkspaceRoots } from '../tools/files/workspace-roots.js';
import { WEB_SEARCH, type WebSearchGate } from '../tools/web/web-search.js';
import { DirectoryToolMemory } from '../tools/memory/tool-memory.js';
import type { TodoItem } from '../tools/registry/tool-data.js';
import { CodeAgent } from './code-agent.js';
import type { SessionSettings } from './session-settings.js';
import type { AgentController, SessionInfo, SessionManager } from './controller.js';
import type { restoreFileState } from './resumed-file-state.js';

export interface SessionManagerDeps {
  config: Config;
  provider: ModelProvider;
  registry: ToolRegistry;
  store: SessionStore;
  projectRoot: string;
  /** The user trusts this project: its memory files may import from the home directory. */
  trusted?: boolean;
  /** Read deny rules, for memory-file imports (src/permissions/path-screen.ts). */
  readDenied?: PathCheck;
  /** A section L1 carries after the system prompt and tools, before the environment (the skills listing). */
  systemSection?: string;
  /** The added directories (`--add-dir`, `/add-dir`): the tools' extra roots, listed in the environment. */
  roots?: WorkspaceRoots;
  /** The provider's web search: its client gate leaves the tool list once the search is on (web-search.ts). */
  webSearch?: WebSearchGate;
  /** The runtime's environment, for the tools (`ToolContext.env`). */
  env?: EnvironmentView;
}

/**
 * A resumed session gets back the todo list its last successful TodoWrite set, so the recap and `/todos`
 * continue where they were.
 */
export function todosFromHistory(messages: readonly Message[]): TodoItem[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'tool' || message.metadata.toolName !== 'TodoWrite') continue;
    let status: unknown;
    try {
      status = (JSON.parse(message.content) as { status?: unknown }).status;
    } catch {
      continue;
    }
    const input = message.metadata.action?.input as { todos?: unknown } | undefined;
    if (status === 'success' && Array.isArray(input?.todos)) return input.todos as TodoItem[];
  }
  return [];
}

/** The recap the prompt carries; left out once no todo is pending or in progress (nothing left to track). */
function promptTodoRecap(todos: TodoStore): string | undefined {
  const open = todos.list().some((todo) => todo.status === 'pending' || todo.status === 'in_progress');
  return open ? todos.recap() : undefined;
}

/**
 * Which session a runtime opens. `fork` (Claude Code's `--fork-session`, with `continue` or `resume`): the earlier
 * session's conversation continues in a new session (`forkId`, or a fresh id); the earlier file is not changed.
 */
export type SessionStart =
  | { kind: 'new'; sessionId?: string }
  | { kind: 'continue'; fork?: ForkTarget }
  | { kind: 'resume'; sessionId: string; fork?: ForkTarget };

export interface ForkTarget {
  sessionId?: string;
}

export class ProjectSessions implements SessionManager {
  private active: CodeAgent | undefined;
  /** The system text without the environment, for the tool prompts it was composed with (text protocol: L1 lists them). */
  private baseLayer: { prompts: Array<{ name: string; prompt: string }>; text: string } | undefined;
  /** L1 for the current model and base text (the environment block names the model); rebuilt when either changes. */
  private withoutGate: { from: ToolSpec[]; specs: ToolSpec[] } | undefined;
  private systemLayer: { model: string; base: string; roots: string; text: string } | undefined;
  /** Native tool use: the estimate of the current `tools` definitions (counted into L1), for the specs measured. */
  private toolTokens: { specs: ToolSpec[]; tokens: number } | undefined;
  /**
   * The permission mode and model of this front end's sessions (the one copy): config's at start, then whatever
   * the driver set; every session opened here shares it.
   */
  readonly settings: SessionSettings;
  /** A host's system prompt text (Claude Code's flags, the Agent SDK's initialize): none by default. */
  private customPrompt: SystemPromptCustomization = {};
  /** Sections the settings add after `systemSection` (commit attribution, output style), by key, in insertion order. */
  private readonly promptSections = new Map<string, string>();

  constructor(private readonly deps: SessionManagerDeps) {
    this.settings = { model: deps.config.model, mode: deps.config.permissionMode };
  }

  private get native(): boolean {
    return this.deps.config.toolProtocol === 'native';
  }

  /**
   * The tool list is read at every step, not frozen at start: a tool registered or removed while the session runs
   * (an MCP server connecting late) changes the next request. The registry keeps its prompts and specs until its
   * list changes, so an unchanged list gives byte-identical requests.
   */
  private baseLayerText(): string {
    const prompts = this.deps.registry.prompts();
    if (this.baseLayer?.prompts !== prompts) {
      const protocol = this.deps.config.toolProtocol;
      const text = composeProtocolLayer(
        loadPrompt('system.md'),
        { name: protocol, section: loadPrompt(`protocol-${protocol}.md`) },
        prompts,
      );
      this.baseLayer = { prompts, text };
    }
    return this.baseLayer.text;
  }

  private systemLayerText(): string {
    const base = this.baseLayerText();
    const roots = this.deps.roots?.list() ?? [];
    const rootsKey = roots.join('\n');
    if (
      this.systemLayer?.model !== this.settings.model ||
      this.systemLayer.base !== base ||
      this.systemLayer.roots !== rootsKey
    ) {
      const facts = detectEnvironment(this.deps.projectRoot, this.settings.model);
      const environment = renderEnvironment(roots.length > 0 ? { ...facts, additionalRoots: roots } : facts);
      const section = [this.deps.systemSection, ...this.promptSections.values()]
        .map((text) => text?.trim() ?? '')
        .filter((text) => text !== '')
        .map((text) => `${text}\n\n`)
        .join('');
      const appended = this.customPrompt.append?.trim() ? `\n\n${this.customPrompt.append.trim()}` : '';
      const layer = replaceSystemIdentity(base, this.customPrompt.replace);
      this.systemLayer = {
        model: this.settings.model,
        base,
        roots: rootsKey,
        text: `${layer}\n\n${section}${environment}${appended}`,
      };
    }
    return this.systemLayer.text;
  }

  /** Sets (or, with no text, removes) one settings section of L1 for every session from now on. */
  setPromptSection(key: string, text: string | undefined): void {
    if (text?.trim()) this.promptSections.set(key, text);
    else this.promptSections.delete(key);
    this.systemLayer = undefined;
  }

  /** Sets the host's system prompt text for every session from now on (the next request carries it). */
  customizeSystemPrompt(custom: SystemPromptCustomization): void {
    this.customPrompt = { ...custom };
    this.systemLayer = undefined;
  }

  /** Native tool use: the `tools` definitions every request carries now (the summary request too). */
  private toolSpecs(): ToolSpec[] {
    const all = this.deps.registry.toolSpecs();
    const gate = this.deps.webSearch;
    if (gate === undefined || gate.clientToolOffered()) return all;
    // The same array while the registry's is: an unchanged list keeps the request bytes (and the cache) stable.
    if (this.withoutGate?.from !== all) {
      this.withoutGate = { from: all, specs: all.filter((spec) => spec.name !== WEB_SEARCH) };
    }
    return this.withoutGate.specs;
  }

  private toolDefinitionTokens(): number {
    if (!this.native) return 0;
    const specs = this.toolSpecs();
    if (this.toolTokens?.specs !== specs) this.toolTokens = { specs, tokens: estimateTokens(JSON.stringify(specs)) };
    return this.toolTokens.tokens;
  }

  /** Opens the session `start` names. `continue` with no earlier session starts a new one. */
  async open(start: SessionStart): Promise<{ controller: CodeAgent; warnings: string[] }> {
    if (start.kind === 'new') return { controller: await this.newSession(start.sessionId), warnings: [] };
    const id = start.kind === 'resume' ? start.sessionId : await this.deps.store.latest();
    if (id === undefined) return { controller: await this.newSession(start.fork?.sessionId), warnings: [] };
    if (start.fork) {
      const earlier = await this.deps.store.readMessages(id);
      const writer = await this.deps.store.create(this.settings.model, start.fork.sessionId);
      writer.writeSnapshot(earlier.messages);
      const restore = (await import('./resumed-file-state.js')).restoreFileState;
      return { controller: this.activate(writer, earlier.messages, restore), warnings: earlier.warnings };
    }
    const loaded = await this.deps.store.open(id);
    // Loaded only for a continued session (a new one has nothing to restore): off the plain `-p` path.
    const restore = (await import('./resumed-file-state.js')).restoreFileState;
    return { controller: this.activate(loaded.writer, loaded.messages, restore), warnings: loaded.warnings };
  }

  current(): AgentController {
    if (!this.active) throw new Error('ProjectSessions.current() called before a session was opened');
    return this.active;
  }

  async newSession(sessionId?: string): Promise<CodeAgent> {
    const writer = await this.deps.store.create(this.settings.model, sessionId);
    return this.activate(writer, []);
  }

  /** Closes the active session's file; call once when the front end exits. */
  close(): void {
    this.active?.close();
    this.active = undefined;
  }

  listSessions(): Promise<SessionInfo[]> {
    return this.deps.store.list();
  }

  async resume(sessionId: string): Promise<CodeAgent> {
    return (await this.open({ kind: 'resume', sessionId })).controller;
  }

  private activate(writer: SessionWriter, messages: Message[], restore?: typeof restoreFileState): CodeAgent {
    const { config, provider, registry, projectRoot } = this.deps;
    this.active?.close();
    // An approved WebSearch call turned the search on for the session it was asked in, not for this one.
    this.deps.webSearch?.newSession();
    const history = new HistoryManager({ minRetainRounds: config.minRetainRounds }, messages);
    const todos = new TodoStore();
    const fileState = new FileStateRecord();
    // A continued session still knows the files its earlier runs read (Edit needs no new Read of them).
    restore?.(messages, projectRoot, fileState);
    const resumedPaths = filesTouchedIn(messages, projectRoot);
    const memory = new MemoryFiles({
      projectRoot,
      mcaHome: config.mcaHome,
      maxChars: config.codeLawMaxChars,
      trusted: this.deps.trusted === true,
      // A resumed session's files (from its history's file-tool calls) count as touched: their subdirectories'
      // memory files are back in the prompt, as before the session ended.
      touched: () => [...resumedPaths, ...fileState.paths()],
      ...(this.deps.readDenied ? { readDenied: this.deps.readDenied } : {}),
    });
    todos.set(todosFromHistory(messages));
    history.onAppend((message) => writer.appendMessage(message));
    history.onSnapshot((list) => writer.writeSnapshot([...list]));
    const summarizer = new SummaryCompressor({
      provider,
      // An unset summary model follows the session's current model, also after `/model`.
      model: config.summaryModel ?? (() => this.settings.model),
      timeoutMs: config.summaryTimeoutMs,
      contextWindow: config.contextWindow,
      template: loadPrompt('summary.md'),
    });
    const context = new ContextEngine({
      history,
      builder: new ContextBuilder({
        systemPrompt: () => this.systemLayerText(),
        memory,
        toolDefinitionTokens: () => this.toolDefinitionTokens(),
        // Native tool use renders closed rounds without the text protocol's `Action:` form.
        historyForm: this.native ? 'native' : 'text',
      }),
      summarizer,
      contextWindow: config.contextWindow,
      compressionThreshold: config.compressionThreshold,
      maxOutputTokens: config.maxOutputTokens,
      todoRecap: () => promptTodoRecap(todos),
      ...(this.native ? { requestTools: () => this.toolSpecs() } : {}),
      // Beside the session file, named by its id: `-c`/`--resume` reopen the same references.
      toolMemory: new DirectoryToolMemory(join(this.deps.store.dir, `${writer.sessionId}.tools`), (text) =>
        this.deps.store.redact(text),
      ),
    });
    const agent = new CodeAgent({
      config,
      provider,
      registry,
      context,
      settings: this.settings,
      session: writer,
      projectRoot,
      fsView: createProjectFsView(projectRoot),
      todos,
      fileState,
      memory,
      ...(this.deps.readDenied ? { readDenied: this.deps.readDenied } : {}),
      ...(this.deps.env ? { env: this.deps.env } : {}),
      ...(this.native ? { toolSpecs: () => this.toolSpecs() } : {}),
      ...(this.deps.roots ? { extraRoots: () => this.deps.roots?.list() ?? [] } : {}),
      ...(this.deps.webSearch ? { webSearch: () => this.deps.webSearch?.offer() } : {}),
    });
    this.active = agent;
    return agent;
  }
}

/**
 * A tool that works on the one file its input's `path` names (Read, Write, Edit, MultiEdit): its definition shows
 * the line a call starts at or the change it makes.
 */
function worksOnOneFile(tool: string): boolean {
  const display = toolNamed(tool)?.display;
  return display?.line !== undefined || display?.changes !== undefined;
}

/** Absolute paths of the files a history's file-tool calls named (Read, Write, Edit, MultiEdit). */
export function filesTouchedIn(messages: readonly Message[], projectRoot: string): string[] {
  const paths = new Set<string>();
  for (const message of messages) {
    const action = message.metadata.action;
    if (!action || !worksOnOneFile(action.tool)) continue;
    const path = (action.input as { path?: unknown } | null)?.path;
    if (typeof path === 'string' && path !== '') paths.add(isAbsolute(path) ? path : resolve(projectRoot, path));
  }
  return [...paths];
}
