/**
 * The composition root: from plain options (runtime-options.ts) to a configured ProjectSessions with an open
 * session. Front ends wrap it (src/cli/bootstrap.ts maps flags in and failures to exit codes). Every configuration
 * failure is thrown as a typed McaError before any session file is created: RuntimeError (the directory),
 * ConfigError, SettingsFlagError (a malformed rule), MissingApiKeyError, SessionError (`resume`/`continue` cannot
 * open: not found, ambiguous, locked), HistoryError (a damaged session).
 *
 * Several runtimes may live in one process, each with its own directory, rules, tools, memory files and session;
 * what they share is process-wide by nature (the temp-file journal, tracked process groups, loaded prompts).
 */
import { untrustedInOneLine } from './untrusted-line.js';
// Static: bootstrap.ts loads the module at start for its error class anyway.
import { runApiKeyHelper } from './api-key-helper.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadExtensions, registerExtensionTools, type Extensions } from '../subagents/install.js';
import { subagentTranscriptDir } from '../subagents/subagent-steps.js';
import type { Config } from '../config/config.js';
import {
  applyToProcess,
  environmentView,
  runWithEnvironment,
  type EnvironmentOverlay,
  type EnvironmentView,
} from '../config/child-environment.js';
import { credentialSecrets, loadConfig, loadCredentials, resolveMcaHome } from '../config/config.js';
import { readClaudeSettings, type ClaudeSettings } from '../claude-code/settings.js';
import { unconfiguredSandbox } from '../sandbox/sandbox-defaults.js';
import { SandboxSwitch } from '../sandbox/sandbox-switch.js';
import { applyOutputStyle, attributionSection } from './settings-sections.js';
import type { PluginFolder } from '../commands/plugin-folders.js';
import type { CodeAgent } from '../loop/code-agent.js';
import { ProjectSessions } from '../loop/session-manager.js';
import { MemoryFiles } from '../context/memory-files.js';
import { openHooks, type OpenedHooks } from '../hooks/hook-sources.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import { createProvider } from '../providers/create-provider.js';
import { SessionStore } from '../store/session-store.js';
// Static: every start runs the sweep (after its first turn of the event loop), so a chunk of its own only cost a file.
import { DEFAULT_CLEANUP_PERIOD_DAYS, pruneOldSessions } from '../store/session-cleanup.js';
import { createDefaultRegistry, type ToolRegistry } from '../tools/registry/registry.js';
import { ProjectCheckpoints } from '../checkpoints/project-checkpoints.js';
import { journalTempsIn, sweepTempJournals } from '../fs/temp-journal.js';
import { projectRootOf } from './project-root.js';
import { RuntimeError } from './runtime-error.js';
import { WorkspaceRoots } from '../tools/files/workspace-roots.js';
import { createWebSearchTool, WEB_SEARCH, WebSearchGate, webSearchUnavailable } from '../tools/web/web-search.js';
import type { ModelProvider } from '../providers/types.js';
import type { RuntimeOptions } from './runtime-options.js';
import { permissionPolicy } from './trust-policy.js';
import { planMcp, startMcp } from './mcp-servers.js';
import type { McpManager } from '../mcp/mcp-manager.js';

export interface Runtime {
  config: Config;
  /** The plugins loaded (`--plugin-dir`, `enabledPlugins`; the driver's command list reads their commands). */
  plugins: readonly PluginFolder[];
  projectRoot: string;
  /** The permission rules in force (settings files and the options' rules). */
  policy: PermissionPolicy;
  /** The user trusts this project (its allow rules and commands' shell lines apply). */
  trusted: boolean;
  sessions: ProjectSessions;
  controller: CodeAgent;
  /** One line each, for the person (settings ignored, a memory file that cannot be used, …). */
  notices: string[];
  /**
   * The session's tool registry: it redacts the keys below from every result, so shell commands the user runs
   * (`!command`, custom commands' shell lines) go through it too, never through a registry of their own.
   */
  registry: ToolRegistry;
  /** The exact key values mca holds, for everything else it writes (output, input history). */
  secrets: readonly string[];
  /** The hooks of every settings scope (the engine only when one is in effect; src/hooks). */
  hooks: OpenedHooks;
  /** A session's file (hooks' `transcript_path`). */
  transcriptPathOf(sessionId: string): string;
  /** The MCP servers (absent when none is configured); `close()` ends them before the process exits. */
  mcp?: McpManager;
  /** Subagent definitions, skills and the subagent event bus (src/agents). */
  extensions: Extensions;
  /** Checkpoints of this project's sessions (rewind, rewind_files, the store's size). */
  checkpoints: ProjectCheckpoints;
  /** The added directories (`--add-dir`, settings, `/add-dir`): the file tools' roots besides the project. */
  roots: WorkspaceRoots;
  /** The settings' `env` this runtime's work runs with when isolated (RuntimeOptions.isolateEnvironment); else {}. */
  environment: EnvironmentOverlay;
  /** This runtime's environment (process.env with its settings `env` over it): what its parts read, never process.env. */
  env: EnvironmentView;
  /** The sandbox Bash runs in (src/sandbox): its settings, `/sandbox`, and `close()` at exit. */
  sandbox: SandboxSwitch;
}

/** Where each mca process lists the temp files it creates (temp-journal.ts). */
export function tempJournalDir(mcaHome: string): string {
  return join(mcaHome, 'temp-journal');
}

/**
 * Removes the temp files killed mca processes left, from their journals: a few small files, not a walk of the
 * project. Never rejects.
 */
export async function sweepLeftoverTemps(mcaHome: string): Promise<void> {
  await sweepTempJournals(tempJournalDir(mcaHome));
}

function configFlags(options: RuntimeOptions): Parameters<typeof loadConfig>[0]['flags'] {
  const flags: NonNullable<Parameters<typeof loadConfig>[0]['flags']> = {};
  if (options.model) flags.model = options.model;
  if (options.fallbackModel) flags.fallbackModel = [options.fallbackModel];
  if (options.maxSteps) flags.maxSteps = options.maxSteps;
  if (options.permissionMode) flags.permissionMode = options.permissionMode;
  if (options.toolProtocol) flags.toolProtocol = options.toolProtocol;
  return flags;
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const projectRoot = projectRootOf(options.cwd);
  const notices: string[] = [];
  const mcaHome = resolveMcaHome();
  // The settings files' `env` and `model` (Claude Code's meaning) come before the config: `env` may name the
  // endpoint, the key or mca's own variables. A project's `env` counts only once the project is trusted, so the
  // trust question (which lists it) comes first.
  const untrusted = readClaudeSettings({ projectRoot, mcaHome, home: homedir(), trusted: false });
  const mcpPlan = await planMcp(options, { mcaHome }, projectRoot, notices);
  // Plugins (src/plugins) load only when one is configured: a start without any imports none of that code.
  const found =
    (options.pluginDirs?.length ?? 0) + untrusted.enabledPlugins.length > 0
      ? await (await import('./runtime-plugins.js')).findPlugins(options, untrusted, { projectRoot, mcaHome }, notices)
      : undefined;
  if (found) mcpPlan.servers.push(...found.servers);
  const {
    policy,
    notices: policyNotices,
    trusted,
    asked,
  } = await permissionPolicy(options, { mcaHome }, projectRoot, options.askTrust, [
    ...mcpPlan.widening,
    ...(found?.widening ?? []),
    // What the project's `sandbox` settings would widen once trusted (an untrusted project may only narrow the box).
    ...(await sandboxTrustLines(untrusted.sandbox)).map((text) => ({ group: 'widening' as const, text, danger: true })),
  ]);
  const settings = trusted ? readClaudeSettings({ projectRoot, mcaHome, home: homedir(), trusted }) : untrusted;
  notices.push(...settings.notices);
  const roots = addedRoots(projectRoot, options.addDirs ?? [], settings.additionalDirectories, notices);
  const sandbox = await sandboxSwitch(settings.sandbox, trusted, options, { projectRoot, mcaHome, roots }, notices);
  // As in Claude Code, the settings' variables hold for the whole process: mca's own reads and the commands it runs.
  // A process serving several runtimes keeps them per runtime instead (child-environment.ts).
  const environment: EnvironmentOverlay = options.isolateEnvironment ? { ...settings.env } : {};
  if (!options.isolateEnvironment) applyToProcess(settings.env);
  const env = environmentView(environment);
  const config = loadConfig({
    env,
    cwd: projectRoot,
    flags: configFlags(options),
    warnings: notices,
    settingsModel: settings.model,
    settingsPermissionMode: settings.defaultMode,
    settingsFallbackModel: settings.fallbackModel,
    settingsThinking: settings.alwaysThinking,
  });
  notices.push(...policyNotices);
  const credentials = loadCredentials(env);
  // The helper's keys join the redaction list (the same array every consumer holds) before a request carries them.
  const secrets = credentialSecrets(credentials);
  const helper = settings.apiKeyHelper;
  const provider = await createProvider(config, credentials, {
    env,
    // Without any key the start fails; a project helper left off for want of trust is the reason worth naming.
    missingKeyHint: settings.notices.find((line) => line.startsWith('ignored "apiKeyHelper"')),
    ...(helper
      ? {
          keyHelper: async () => {
            const key = await runApiKeyHelper(helper, projectRoot);
            if (!secrets.includes(key)) secrets.push(key);
            return key;
          },
        }
      : {}),
  });
  const store = new SessionStore(config.mcaHome, projectRoot, { secrets });
  // Checkpoints guard every call of whichever session is open now (sessions are created below).
  const checkpoints = new ProjectCheckpoints(store, projectRoot, undefined, secrets, () => roots.list());
  const opened: { sessions?: ProjectSessions } = {};
  const registry = createDefaultRegistry({
    secrets,
    ...(options.files ? { files: options.files } : {}),
    ...(options.commands ? { commands: options.commands } : {}),
    box: sandbox,
    beforeRun: async (call, tool, signal) => {
      const sessionId = opened.sessions?.current().sessionId;
      return sessionId === undefined ? undefined : await checkpoints.beforeRun(sessionId, call, tool, signal);
    },
  });
  const webSearch = await webSearchGate(provider, config, policy, registry);
  // The box is probed (and set up lazily) only when the settings or `--sandbox` turn it on; before the project's
  // MCP servers and hooks, which it may hold too.
  const unavailable = await sandbox.start();
  if (unavailable !== undefined) notices.push(unavailable);
  const mcp = await runWithEnvironment(environment, () =>
    startMcp(
      mcpPlan,
      {
        config,
        projectRoot,
        trusted,
        approvedNow: asked && trusted,
        registry,
        signInFromSession: options.mcpSignInFromSession === true,
        env,
        askApproval: options.askMcpApproval,
        boxProjectCommand: sandbox.boxProjectCommand,
      },
      notices,
    ),
  );
  journalTempsIn(tempJournalDir(config.mcaHome));
  // Memory-file imports and attachments pass the one path screen, like the Read tool (`@.env` in CLAUDE.md).
  const readScreen = policy.pathScreen('Read');
  const readDenied = readScreen ? (await import('../permissions/path-screen.js')).pathCheck(readScreen) : undefined;
  // A plugin only the project enabled brings its parts once the project is trusted.
  const plugins = found ? found.folders.filter((plugin) => trusted || !plugin.project) : [];
  const extensions = await loadExtensions({
    plugins,
    projectRoot,
    mcaHome: config.mcaHome,
    home: options.home ?? homedir(),
    trusted,
    agentsJson: options.agents,
  });
  notices.push(...extensions.problems);
  const sessions = new ProjectSessions({
    config,
    provider,
    registry,
    store,
    projectRoot,
    trusted,
    readDenied,
    roots,
    webSearch,
    env,
    ...(extensions.skillSection === undefined ? {} : { systemSection: extensions.skillSection }),
  });
  sessions.setPromptSection('attribution', attributionSection(settings.commitAttribution));
  if (settings.outputStyle) {
    const styleSources = { projectRoot, home: options.home ?? homedir(), mcaHome: config.mcaHome, plugins };
    notices.push(...(await applyOutputStyle(sessions, settings.outputStyle, styleSources)));
  }
  registerExtensionTools(registry, extensions, {
    config,
    provider,
    projectRoot,
    trusted,
    secrets,
    model: () => sessions.current().model,
    transcriptDir: () => subagentTranscriptDir(store.pathOf(sessions.current().sessionId)),
  });
  opened.sessions = sessions;
  // A memory file that cannot be used (a symlink out of the project, a FIFO) is named once, at start.
  const memory = new MemoryFiles({
    projectRoot,
    mcaHome: config.mcaHome,
    maxChars: config.codeLawMaxChars,
    trusted,
    readDenied,
  });
  memory.read();
  notices.push(...memory.problems());
  const start = options.session ?? { kind: 'new' };
  if (start.kind === 'continue' && (await store.latest()) === undefined) {
    notices.push('no earlier session in this directory; starting a new one');
  }
  // With no hook configured this reads the settings files only: the engine is not even imported.
  const hooks = await openHooks({
    projectRoot,
    mcaHome: config.mcaHome,
    trusted,
    env,
    boxProjectCommand: sandbox.boxProjectCommand,
    plugins: found?.hooks,
  });
  notices.push(...hooks.loaded.notices);
  const first = await sessions.open(start);
  notices.push(...first.warnings);
  pruneSessionsLater(config.mcaHome, settings.cleanupPeriodDays, first.controller.sessionId);
  return {
    notices: untrustedInOneLine(notices),
    config,
    plugins,
    projectRoot,
    policy,
    trusted,
    sessions,
    controller: first.controller,
    registry,
    secrets,
    hooks,
    transcriptPathOf: (sessionId) => store.pathOf(sessionId),
    ...(mcp ? { mcp } : {}),
    extensions,
    checkpoints,
    roots,
    environment,
    env,
    sandbox,
  };
}

/** What the project's `sandbox` settings would widen once trusted; the resolver loads only when one has some. */
async function sandboxTrustLines(files: ClaudeSettings['sandbox']): Promise<string[]> {
  if (!files.some((entry) => entry.project)) return [];
  return (await import('../sandbox/sandbox-layers.js')).sandboxTrustLines(files);
}

/**
 * The session's sandbox handle (src/sandbox), from the settings files' `sandbox` and `--sandbox`. With neither, the
 * defaults (the box off), without loading the resolver.
 */
async function sandboxSwitch(
  files: ClaudeSettings['sandbox'],
  trusted: boolean,
  options: RuntimeOptions,
  places: { projectRoot: string; mcaHome: string; roots: WorkspaceRoots },
  notices: string[],
): Promise<SandboxSwitch> {
  const resolved =
    files.length === 0 && options.sandbox === undefined
      ? unconfiguredSandbox()
      : (await import('../sandbox/sandbox-layers.js')).resolveSandboxSources({ files, trusted, flag: options.sandbox });
  notices.push(...resolved.notices);
  for (const line of resolved.ignoredWidening) {
    notices.push(
      `ignored ${line}: the project is not trusted (it may only narrow the box); run \`mca trust\` to use it`,
    );
  }
  return new SandboxSwitch(resolved, {
    projectRoot: places.projectRoot,
    roots: () => places.roots.list().filter((root) => root !== places.projectRoot),
    home: options.home ?? homedir(),
    mcaHome: places.mcaHome,
  });
}

/**
 * Settings `cleanupPeriodDays`: old sessions are removed after this turn of the event loop, not awaited (the process
 * still finishes it before it ends on its own); the current session is never one of them.
 */
function pruneSessionsLater(mcaHome: string, days: number | undefined, current: string): void {
  setImmediate(() => {
    void pruneOldSessions({ mcaHome, days: days ?? DEFAULT_CLEANUP_PERIOD_DAYS, keep: new Set([current]) }).catch(
      () => undefined,
    );
  });
}

/**
 * The session's added directories: the flags' (a wrong one fails the start: the user asked for it by name), then
 * the settings' (a wrong one is named and skipped; readClaudeSettings already kept only the files allowed to add).
 */
function addedRoots(
  projectRoot: string,
  flags: readonly string[],
  fromSettings: ReadonlyArray<{ dir: string; file: string }>,
  notices: string[],
): WorkspaceRoots {
  const roots = new WorkspaceRoots(projectRoot);
  for (const dir of flags) {
    const added = roots.add(dir);
    if (!added.ok) throw new RuntimeError('ADD_DIR_INVALID', `--add-dir ${dir}: ${added.message}`, dir);
  }
  for (const { dir, file } of fromSettings) {
    const added = roots.add(dir);
    if (!added.ok) notices.push(`ignored additional directory ${dir} in ${file}: ${added.message}`);
  }
  return roots;
}

/**
 * WebSearch (src/tools/web/web-search.ts): registered where the provider searches on its side and the session uses
 * native tool use, and on from the start when an allow rule covers it; elsewhere a call is answered in one line.
 */
async function webSearchGate(
  provider: ModelProvider,
  config: Config,
  policy: PermissionPolicy,
  registry: ToolRegistry,
): Promise<WebSearchGate> {
  const native = config.toolProtocol === 'native';
  const gate = new WebSearchGate(provider.serverWebSearch === true && native);
  if (!gate.supported) {
    registry.markUnavailable(WEB_SEARCH, webSearchUnavailable(provider.name, native));
    return gate;
  }
  registry.register(createWebSearchTool(gate));
  if ((await policy.evaluate(WEB_SEARCH, {})).behavior === 'allow') gate.allowByRule();
  return gate;
}
