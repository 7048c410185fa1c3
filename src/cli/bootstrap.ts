/**
 * The composition root: turns parsed flags into a configured ProjectSessions with an open session. Every
 * configuration failure becomes a CliError (one line, exit 2) before any session file is created.
 */
import { realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PermissionMode, ToolProtocol } from '../config/config.js';
import { ConfigError, credentialSecrets, loadConfig, loadCredentials } from '../config/config.js';
import type { Config } from '../config/config.js';
import type { CodeAgent } from '../agent/code-agent.js';
import { ProjectSessions } from '../agent/session-manager.js';
import { loadCustomCommands } from '../commands/custom-commands.js';
import { MemoryFiles } from '../context/memory-files.js';
import { HistoryError } from '../context/history-manager.js';
import type { SessionStart } from '../agent/session-manager.js';
import { createProvider } from '../providers/create-provider.js';
import { SessionStore } from '../session/session-store.js';
import { createDefaultRegistry, type ToolRegistry } from '../tools/registry.js';
import { journalTempsIn, sweepTempJournals } from '../tools/temp-journal.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import { loadPermissionPolicy, SettingsFlagError, type LoadedPolicy } from '../permissions/settings-files.js';
import { recordTrust, trustChoice, TrustStoreError } from '../permissions/trust-store.js';
import { CliError, EXIT_USAGE } from './exit-codes.js';
import type { CliOptions } from './program.js';

export interface Bootstrapped {
  config: Config;
  projectRoot: string;
  /** The permission rules in force (settings files and flags). */
  policy: PermissionPolicy;
  /** The user trusts this project (its allow rules and commands' shell lines apply). */
  trusted: boolean;
  sessions: ProjectSessions;
  controller: CodeAgent;
  notices: string[];
  /**
   * The session's tool registry: it redacts the keys below from every result, so shell commands the user runs
   * (`!command`, custom commands' shell lines) go through it too, never through a registry of their own.
   */
  registry: ToolRegistry;
  /** The exact key values mca holds, for everything else it writes (output, input history). */
  secrets: readonly string[];
}

export function resolveProjectRoot(cwd: string | undefined): string {
  const wanted = resolve(cwd ?? process.cwd());
  try {
    if (!statSync(wanted).isDirectory()) throw new CliError(`--cwd ${wanted} is not a directory`);
    return realpathSync(wanted);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`project directory ${wanted} does not exist`);
  }
}

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
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

function sessionStart(options: CliOptions): SessionStart {
  if (options.resume) return { kind: 'resume', sessionId: options.resume };
  if (options.continueLast) return { kind: 'continue' };
  return { kind: 'new' };
}

/**
 * Asks the person whether to trust this project (the REPL, once per project); resolves true for yes. Print mode
 * has none: an untrusted project's allow rules are ignored with one notice.
 */
export type TrustQuestion = (projectRoot: string, widening: readonly string[]) => Promise<boolean>;

function loadPolicy(options: CliOptions, config: Config, projectRoot: string, trusted: boolean): LoadedPolicy {
  try {
    return loadPermissionPolicy({
      projectRoot,
      mcaHome: config.mcaHome,
      trusted,
      allowedTools: options.allowedTools,
      disallowedTools: options.disallowedTools,
    });
  } catch (error) {
    if (error instanceof SettingsFlagError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

/** The project's custom commands that run shell lines: executables the project supplies. */
async function projectShellCommands(projectRoot: string, mcaHome: string): Promise<string[]> {
  return [...(await loadCustomCommands({ projectRoot, mcaHome })).values()]
    .filter((command) => command.scope === 'project' && /!`[^`\n]+`/.test(command.body))
    .map((command) => `/${command.name} runs shell commands (${command.path})`);
}

/** The rules in force; asks about trust once when the project brings allow rules and nobody decided yet. */
async function permissionPolicy(
  options: CliOptions,
  config: Config,
  projectRoot: string,
  askTrust: TrustQuestion | undefined,
): Promise<LoadedPolicy & { trusted: boolean }> {
  const choice = trustChoice(config.mcaHome, projectRoot);
  const loaded = loadPolicy(options, config, projectRoot, choice === 'trusted');
  if (choice !== 'unknown' || !askTrust) return { ...loaded, trusted: choice === 'trusted' };
  const widening = [
    ...loaded.ignoredProjectAllows.map((rule) => `${rule.text} (${rule.source})`),
    ...(await projectShellCommands(projectRoot, config.mcaHome)),
  ];
  if (widening.length === 0) return { ...loaded, trusted: false };
  const trusted = await askTrust(projectRoot, widening);
  try {
    recordTrust(config.mcaHome, projectRoot, trusted);
  } catch (error) {
    if (error instanceof TrustStoreError)
      loaded.notices.push(`${error.message}; the choice holds for this session only`);
    else throw error;
  }
  return trusted ? { ...loadPolicy(options, config, projectRoot, true), trusted } : { ...loaded, trusted };
}

/** `askTrust` is the REPL's trust question; print mode passes none. Approval is the session driver's business. */
export async function bootstrap(options: CliOptions, askTrust?: TrustQuestion): Promise<Bootstrapped> {
  const projectRoot = resolveProjectRoot(options.cwd);
  let config: Config;
  const notices: string[] = [];
  try {
    const flags: { model?: string; maxSteps?: number; permissionMode?: PermissionMode; toolProtocol?: ToolProtocol } =
      {};
    if (options.model) flags.model = options.model;
    if (options.maxSteps) flags.maxSteps = options.maxSteps;
    if (options.permissionMode) flags.permissionMode = options.permissionMode;
    if (options.toolProtocol) flags.toolProtocol = options.toolProtocol;
    config = loadConfig({ cwd: projectRoot, flags, warnings: notices });
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
  const { policy, notices: policyNotices, trusted } = await permissionPolicy(options, config, projectRoot, askTrust);
  notices.push(...policyNotices);
  const credentials = loadCredentials();
  let provider;
  try {
    provider = await createProvider(config, credentials);
  } catch (error) {
    if (hasCode(error, 'MISSING_API_KEY')) throw new CliError((error as Error).message, EXIT_USAGE);
    throw error;
  }
  const secrets = credentialSecrets(credentials);
  const store = new SessionStore(config.mcaHome, projectRoot, { secrets });
  const registry = createDefaultRegistry({ secrets });
  journalTempsIn(tempJournalDir(config.mcaHome));
  const sessions = new ProjectSessions({
    config,
    provider,
    registry,
    store,
    projectRoot,
    trusted,
  });
  // A memory file that cannot be used (a symlink out of the project, a FIFO) is named once, at start.
  const memory = new MemoryFiles({ projectRoot, mcaHome: config.mcaHome, maxChars: config.codeLawMaxChars, trusted });
  memory.read();
  notices.push(...memory.problems());
  const start = sessionStart(options);
  if (start.kind === 'continue' && (await store.latest()) === undefined) {
    notices.push('no earlier session in this directory; starting a new one');
  }
  try {
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
    };
  } catch (error) {
    if (hasCode(error, 'SESSION_NOT_FOUND')) {
      throw new CliError(`no session "${options.resume ?? ''}" in this project (mca -c continues the latest)`);
    }
    if (error instanceof HistoryError) {
      throw new CliError(`the session cannot be continued, its history is damaged (${error.message}); start a new one`);
    }
    if (hasCode(error, 'SESSION_LOCKED')) throw new CliError((error as Error).message, EXIT_USAGE);
    if (hasCode(error, 'SESSION_AMBIGUOUS')) {
      throw new CliError(`session id "${options.resume ?? ''}" matches several sessions; give more characters`);
    }
    throw error;
  }
}
