/**
 * The CLI's composition root: maps parsed flags to RuntimeOptions, builds the runtime (src/runtime), and turns
 * the runtime's typed failures into CliErrors with the CLI's wording (one line, exit 2), before any session file
 * is created. Errors are told apart by class, never by a duck-typed `code`.
 */
import { ConfigError } from '../config/config-error.js';
import { HistoryError } from '../context/history-manager.js';
import { SettingsFlagError } from '../permissions/settings-files.js';
import { MissingApiKeyError } from '../providers/create-provider.js';
import { ApiKeyHelperError } from '../runtime/api-key-helper.js';
import { createRuntime, type Runtime } from '../runtime/create-runtime.js';
import { projectRootOf } from '../runtime/project-root.js';
import { RuntimeError } from '../runtime/runtime-error.js';
import type { McpApprovalQuestion, RuntimeOptions, SessionStart, TrustQuestion } from '../runtime/runtime-options.js';
import { SessionError } from '../store/session-error.js';
import { CliError, EXIT_USAGE } from './exit-codes.js';
import type { CliOptions } from './cli-options.js';

export { sweepLeftoverTemps } from '../runtime/create-runtime.js';
export type { TrustQuestion } from '../runtime/runtime-options.js';

/** What the CLI's front ends get: the runtime as built. */
export type Bootstrapped = Runtime;

/** The CLI's words for a runtime failure; undefined for errors that are not a user's to fix. */
function cliErrorOf(
  error: unknown,
  options: Pick<CliOptions, 'resume'> & { claudeCode?: CliOptions['claudeCode'] },
): CliError | undefined {
  if (error instanceof RuntimeError) {
    if (error.code === 'PROJECT_NOT_DIRECTORY') return new CliError(`--cwd ${error.path} is not a directory`);
    return new CliError(error.message);
  }
  if (error instanceof ConfigError || error instanceof SettingsFlagError || error instanceof MissingApiKeyError) {
    return new CliError(error.message, EXIT_USAGE);
  }
  if (error instanceof ApiKeyHelperError) {
    return new CliError(error.message, EXIT_USAGE);
  }
  if (error instanceof HistoryError) {
    return new CliError(`the session cannot be continued, its history is damaged (${error.message}); start a new one`);
  }
  if (error instanceof SessionError) {
    const id = options.resume ?? '';
    if (error.code === 'SESSION_NOT_FOUND') {
      return new CliError(`no session "${id}" in this project (mca -c continues the latest)`);
    }
    if (error.code === 'SESSION_LOCKED') return new CliError(error.message, EXIT_USAGE);
    if (error.code === 'SESSION_WRITE_FAILED' && options.claudeCode?.sessionId !== undefined) {
      return new CliError(`Session ID ${options.claudeCode.sessionId} is already in use (${error.message})`);
    }
    if (error.code === 'SESSION_AMBIGUOUS') {
      return new CliError(`session id "${id}" matches several sessions; give more characters`);
    }
  }
  return undefined;
}

/** `--cwd` (or the current directory) as the project root; a CliError when it is no directory. */
export function resolveProjectRoot(cwd: string | undefined): string {
  try {
    return projectRootOf(cwd);
  } catch (error) {
    throw cliErrorOf(error, { resume: undefined }) ?? error;
  }
}

function sessionStart(options: CliOptions): SessionStart {
  const sessionId = options.claudeCode?.sessionId;
  // `--fork-session`: the resumed conversation goes on under a new id (`--session-id`, or a fresh one).
  const fork = options.claudeCode?.forkSession ? { fork: sessionId === undefined ? {} : { sessionId } } : {};
  if (options.resume) return { kind: 'resume', sessionId: options.resume, ...fork };
  if (options.continueLast) return { kind: 'continue', ...fork };
  return sessionId === undefined ? { kind: 'new' } : { kind: 'new', sessionId };
}

/** How the first session was opened, for SessionStart hooks: `-c`/`-r` continue one. */
export function startSourceOf(options: Pick<CliOptions, 'resume' | 'continueLast'>): 'resume' | 'startup' {
  return options.resume || options.continueLast ? 'resume' : 'startup';
}

/** The flags as plain runtime options: `--cwd` (default: here), overrides, rules, the session to open. */
export function runtimeOptions(
  options: CliOptions,
  askTrust?: TrustQuestion,
  askMcpApproval?: McpApprovalQuestion,
): RuntimeOptions {
  return {
    cwd: options.cwd ?? process.cwd(),
    ...(options.model ? { model: options.model } : {}),
    ...(options.claudeCode?.fallbackModel ? { fallbackModel: options.claudeCode.fallbackModel } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    ...(options.toolProtocol ? { toolProtocol: options.toolProtocol } : {}),
    allowedTools: options.allowedTools,
    disallowedTools: options.disallowedTools,
    ...(options.mcpConfigs.length > 0 ? { mcpConfigs: options.mcpConfigs } : {}),
    ...(options.strictMcpConfig ? { strictMcpConfig: true } : {}),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
    ...(options.claudeCode?.settingSources ? { settingSources: options.claudeCode.settingSources } : {}),
    ...(options.claudeCode && options.claudeCode.addDirs.length > 0 ? { addDirs: options.claudeCode.addDirs } : {}),
    ...(options.claudeCode && options.claudeCode.pluginDirs.length > 0
      ? { pluginDirs: options.claudeCode.pluginDirs }
      : {}),
    session: sessionStart(options),
    // Only the REPL asks the trust question: a person is at the terminal, so `/mcp` may start a sign-in there.
    ...(askTrust ? { askTrust, mcpSignInFromSession: true } : {}),
    ...(askMcpApproval ? { askMcpApproval } : {}),
  };
}

/** `askTrust` is the REPL's trust question; print mode passes none. Approval is the session driver's business. */
export async function bootstrap(
  options: CliOptions,
  askTrust?: TrustQuestion,
  askMcpApproval?: McpApprovalQuestion,
): Promise<Bootstrapped> {
  try {
    return await createRuntime(runtimeOptions(options, askTrust, askMcpApproval));
  } catch (error) {
    throw cliErrorOf(error, options) ?? error;
  }
}
