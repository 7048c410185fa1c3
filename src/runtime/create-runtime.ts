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
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { credentialSecrets, loadConfig, loadCredentials } from '../config/config.js';
import type { CodeAgent } from '../agent/code-agent.js';
import { ProjectSessions } from '../agent/session-manager.js';
import { MemoryFiles } from '../context/memory-files.js';
import { openHooks, type OpenedHooks } from '../hooks/hook-sources.js';
import { createReadDenyCheck } from '../permissions/read-deny.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import { createProvider } from '../providers/create-provider.js';
import { SessionStore } from '../session/session-store.js';
import { createDefaultRegistry, type ToolRegistry } from '../tools/registry.js';
import { journalTempsIn, sweepTempJournals } from '../tools/temp-journal.js';
import { projectRootOf } from './project-root.js';
import type { RuntimeOptions } from './runtime-options.js';
import { permissionPolicy } from './trust-policy.js';

export interface Runtime {
  config: Config;
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
  if (options.maxSteps) flags.maxSteps = options.maxSteps;
  if (options.permissionMode) flags.permissionMode = options.permissionMode;
  if (options.toolProtocol) flags.toolProtocol = options.toolProtocol;
  return flags;
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const projectRoot = projectRootOf(options.cwd);
  const notices: string[] = [];
  const config = loadConfig({ cwd: projectRoot, flags: configFlags(options), warnings: notices });
  const {
    policy,
    notices: policyNotices,
    trusted,
  } = await permissionPolicy(options, config, projectRoot, options.askTrust);
  notices.push(...policyNotices);
  const credentials = loadCredentials();
  const provider = await createProvider(config, credentials);
  const secrets = credentialSecrets(credentials);
  const store = new SessionStore(config.mcaHome, projectRoot, { secrets });
  const registry = createDefaultRegistry({ secrets });
  journalTempsIn(tempJournalDir(config.mcaHome));
  // Memory-file imports obey Read deny rules like the Read tool (`@.env` in CLAUDE.md).
  const readDenied = await createReadDenyCheck(policy.rules, { projectRoot });
  const sessions = new ProjectSessions({
    config,
    provider,
    registry,
    store,
    projectRoot,
    trusted,
    readDenied,
  });
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
  const hooks = await openHooks({ projectRoot, mcaHome: config.mcaHome, trusted });
  notices.push(...hooks.loaded.notices);
  const opened = await sessions.open(start);
  notices.push(...opened.warnings);
  return {
    config,
    projectRoot,
    policy,
    trusted,
    sessions,
    controller: opened.controller,
    notices,
    registry,
    secrets,
    hooks,
    transcriptPathOf: (sessionId) => store.pathOf(sessionId),
  };
}
