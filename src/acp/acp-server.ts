/**
 * `mca --acp`: the Agent Client Protocol (v1) agent, on the official SDK's AgentApp. This file only maps methods to
 * sessions (acp-session.ts); each session is a runtime and a session driver like every other front's. A handler's
 * typed failure becomes a JSON-RPC error (acp-error.ts); the SDK answers malformed messages and unknown methods.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { ClientCapabilities, McpServer, SessionUpdate } from '@agentclientprotocol/sdk';
import { runWithEnvironment, sessionEnvironment } from '../config/child-environment.js';
import { McaError } from '../errors/mca-error.js';
import { openSession } from '../driver/open-session.js';
import type { CustomCommandsPort } from '../driver/custom-commands-port.js';
import type { Runtime } from '../runtime/create-runtime.js';
import type { SessionStart } from '../runtime/runtime-options.js';
import type { FileAccess } from '../tools/files/file-access.js';
import { acpBroker } from './acp-broker.js';
import { AcpError, JSON_RPC_CODES } from './acp-error.js';
import { AcpSession } from './acp-session.js';
import { clientFiles, offersFiles } from './client-files.js';
import { clientTerminal, offersTerminal } from './client-terminal.js';
import type { CommandHost } from '../tools/processes/command-host.js';
import { listSessions } from './session-list.js';
import { MAX_PENDING_PER_SESSION, MAX_PENDING_REQUESTS, RequestGate } from './request-gate.js';
import { positiveInteger } from '../config/env-number.js';
import { mcpConfigOf } from './mcp-config.js';

/** What a session needs from the front that starts mca (src/cli/modes/acp-mode.ts). */
export interface OpenedRuntime {
  runtime: Runtime;
  customCommands?: CustomCommandsPort | undefined;
}

export interface AcpServerOptions {
  version: string;
  /** Builds a runtime for `cwd` (its project trust applies; nobody is asked). */
  open(request: {
    cwd: string;
    session: SessionStart;
    mcpConfigs: string[];
    files?: FileAccess;
    commands?: CommandHost;
  }): Promise<OpenedRuntime>;
  /** Writes an allow rule to a project's local settings; returns the file. */
  saveRule(projectRoot: string, rule: string): string;
  mcaHome(): string;
  log(line: string): void;
}

/**
 * JSON-RPC codes for the runtime's failures a client can act on: -32000 is ACP's "authentication required" (the one
 * failure a key fixes), -32002 "resource not found", -32602 invalid params; anything else is -32603.
 */
const MCA_CODES: Readonly<Record<string, number>> = {
  MISSING_API_KEY: -32000,
  SESSION_NOT_FOUND: -32002,
  SESSION_AMBIGUOUS: -32602,
  PROJECT_NOT_FOUND: -32602,
  PROJECT_NOT_DIRECTORY: -32602,
};

/** A handler's error as the JSON-RPC error the client gets. */
function rpcError(error: unknown): unknown {
  if (error instanceof acp.RequestError) return error;
  if (error instanceof AcpError) return new acp.RequestError(JSON_RPC_CODES[error.code], error.message);
  if (McaError.isInstance(error)) {
    return new acp.RequestError(MCA_CODES[error.code] ?? -32603, error.message, { code: error.code });
  }
  return new acp.RequestError(-32603, error instanceof Error ? error.message : String(error));
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw rpcError(error);
  }
}

/** Open sessions per connection (each is a runtime: MCP servers, hooks, a session file); session/close frees one. */
export const MAX_SESSIONS = 32;

export class AcpServer {
  private readonly sessions = new Map<string, AcpSession>();
  /** Sessions being opened (counted against the cap with the open ones). */
  private opening = 0;
  private readonly maxSessions = positiveInteger(sessionEnvironment().MCA_ACP_MAX_SESSIONS, MAX_SESSIONS);
  private capabilities: ClientCapabilities | undefined;
  private readonly gate = new RequestGate(
    positiveInteger(sessionEnvironment().MCA_ACP_MAX_PENDING, MAX_PENDING_REQUESTS),
    positiveInteger(sessionEnvironment().MCA_ACP_MAX_PENDING_PER_SESSION, MAX_PENDING_PER_SESSION),
  );

  constructor(private readonly options: AcpServerOptions) {}

  app(): acp.AgentApp {
    return acp
      .agent({ name: 'mca' })
      .onRequest('initialize', ({ params }) => {
        this.capabilities = params.clientCapabilities;
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: true },
            sessionCapabilities: { list: {}, resume: {}, close: {} },
          },
          authMethods: [],
          agentInfo: { name: 'mca', title: 'mca', version: this.options.version },
        };
      })
      .onRequest('authenticate', () => ({}))
      .onRequest('session/new', ({ params, client }) =>
        this.admitted('session/new', async () => {
          const session = await this.openSession(client, params.cwd, params.mcpServers, { kind: 'new' });
          return { sessionId: session.id, modes: session.modes };
        }),
      )
      .onRequest('session/load', ({ params, client }) =>
        this.admitted(params.sessionId, async () => {
          const session =
            this.sessions.get(params.sessionId) ??
            (await this.openSession(
              client,
              params.cwd,
              params.mcpServers,
              { kind: 'resume', sessionId: params.sessionId },
              false,
            ));
          session.replay();
          this.announce(session);
          await session.flushed();
          return { modes: session.modes };
        }),
      )
      .onRequest('session/resume', ({ params, client }) =>
        this.admitted(params.sessionId, async () => {
          const session =
            this.sessions.get(params.sessionId) ??
            (await this.openSession(client, params.cwd, params.mcpServers ?? [], {
              kind: 'resume',
              sessionId: params.sessionId,
            }));
          return { modes: session.modes };
        }),
      )
      .onRequest('session/list', ({ params }) =>
        this.admitted('session/list', async () => ({
          sessions: await listSessions(this.options.mcaHome(), params.cwd ?? process.cwd()),
        })),
      )
      .onRequest('session/prompt', ({ params }) =>
        this.admitted(params.sessionId, async () => {
          const session = this.session(params.sessionId);
          // The turn's commands, hooks and MCP servers see this session's settings `env`, no other session's.
          return {
            stopReason: await runWithEnvironment(session.runtime.environment, () => session.prompt(params.prompt)),
          };
        }),
      )
      .onRequest('session/set_mode', ({ params }) =>
        this.admitted(params.sessionId, async () => {
          this.session(params.sessionId).setMode(params.modeId);
          return {};
        }),
      )
      .onRequest('session/close', ({ params }) =>
        this.admitted(params.sessionId, async () => {
          // Frees the session's runtime (its turn stops, MCP servers and commands end); it stays on disk to load.
          const session = this.session(params.sessionId);
          this.sessions.delete(params.sessionId);
          await runWithEnvironment(session.runtime.environment, () => session.close());
          return {};
        }),
      )
      .onNotification('session/cancel', ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      });
  }

  /** The client went away: every session closes (turns stop, MCP servers and commands end). */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((session) => runWithEnvironment(session.runtime.environment, () => session.close())));
  }

  /** A request's work, if the gate has room for it (request-gate.ts), with its failure as a JSON-RPC error. */
  private admitted<T>(key: unknown, work: () => Promise<T>): Promise<T> {
    return guarded(() => this.gate.run(typeof key === 'string' ? key : String(key), work));
  }

  private session(id: string): AcpSession {
    const session = this.sessions.get(id);
    if (!session) throw new AcpError('ACP_SESSION_NOT_FOUND', `no session "${id}" (create one with session/new)`);
    return session;
  }

  private async openSession(
    client: acp.AgentContext,
    cwd: string,
    mcpServers: readonly McpServer[],
    start: SessionStart,
    announce = true,
  ): Promise<AcpSession> {
    if (typeof cwd !== 'string' || !cwd.startsWith('/')) {
      throw new AcpError('ACP_INVALID_PARAMS', `cwd must be an absolute path, not ${JSON.stringify(cwd)}`);
    }
    if (this.sessions.size + this.opening >= this.maxSessions) {
      throw new AcpError(
        'ACP_OVERLOADED',
        `mca has ${this.sessions.size + this.opening} sessions open (the limit is ${this.maxSessions}, MCA_ACP_MAX_SESSIONS); ` +
          'close one with session/close first',
      );
    }
    this.opening += 1;
    try {
      return await this.openCapped(client, cwd, mcpServers, start, announce);
    } finally {
      this.opening -= 1;
    }
  }

  private async openCapped(
    client: acp.AgentContext,
    cwd: string,
    mcpServers: readonly McpServer[],
    start: SessionStart,
    announce: boolean,
  ): Promise<AcpSession> {
    const holder = { id: start.kind === 'resume' ? start.sessionId : '' };
    const files = offersFiles(this.capabilities) ? clientFiles(client, () => holder.id) : undefined;
    // Bash in the editor's terminal: the call shows the terminal while it runs, before anything releases it.
    const inTerminal = new Set<string>();
    const commands = offersTerminal(this.capabilities)
      ? clientTerminal({
          client,
          sessionId: () => holder.id,
          show: async (callId, terminalId) => {
            inTerminal.add(callId);
            session.send({
              sessionUpdate: 'tool_call_update',
              toolCallId: callId,
              status: 'in_progress',
              content: [{ type: 'terminal', terminalId }],
            });
            await session.flushed();
          },
        })
      : undefined;
    const config = mcpConfigOf(mcpServers);
    const opened = await this.options.open({
      cwd,
      session: start,
      mcpConfigs: config === undefined ? [] : [config],
      ...(files ? { files } : {}),
      ...(commands ? { commands } : {}),
    });
    const { runtime, customCommands } = opened;
    const tell = (text: string): void => session.send(message(text));
    const broker = acpBroker({
      client,
      sessionId: () => holder.id,
      projectRoot: runtime.projectRoot,
      registry: runtime.registry,
      saveRule: (rule) => this.options.saveRule(runtime.projectRoot, rule),
      tell,
      setMode: (mode) => session.driver.setMode(mode),
    });
    const { log } = this.options;
    // The driver (its hooks, commands and shells) is made under this session's settings `env`, no other session's.
    const driven = await runWithEnvironment(runtime.environment, () =>
      openSession(runtime, {
        broker,
        customCommands,
        driverCommands: true,
        startSource: start.kind === 'resume' ? 'resume' : 'startup',
        warn: log,
      }),
    );
    const session: AcpSession = new AcpSession({ runtime, opened: driven, client, log, inTerminal });
    holder.id = session.id;
    this.sessions.set(session.id, session);
    for (const notice of runtime.notices) this.options.log(notice);
    // After the response: a client learns the session id from it, so updates for the id come once it has it.
    if (announce) setImmediate(() => this.announce(session));
    return session;
  }

  /** What the editor should know about a session it opened: its commands, and that an untrusted project is off. */
  private announce(session: AcpSession): void {
    session.send({ sessionUpdate: 'available_commands_update', availableCommands: session.commands() });
    const { runtime } = session;
    if (!runtime.trusted) {
      session.send(
        message(
          `[mca] ${runtime.projectRoot} is not a trusted project: its settings' allow rules, hooks, env, .mcp.json servers, ` +
            `agents and skills stay off. Run \`mca trust ${runtime.projectRoot}\` in a terminal to turn them on.\n`,
        ),
      );
    }
  }
}

function message(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}
