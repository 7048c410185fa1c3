/**
 * `mca --acp` (`mca acp`): the ACP agent (src/acp) on this process's stdin and stdout. Every session an editor
 * opens is a runtime built here from the flags plus the session's `cwd` and MCP servers; nobody is asked about
 * trust (an untrusted project's settings stay off and the editor is told). Nothing but protocol messages reaches
 * stdout (key values redacted); logs go to stderr. Exits 0 when stdin closes, once every session closed (turns
 * interrupted, SessionEnd hooks run, MCP servers and commands ended).
 */
import type { WritableStream } from 'node:stream/web';
import { positiveInteger } from '../../config/env-number.js';
import { credentialSecrets, loadCredentials, resolveMcaHome } from '../../config/config.js';
import { addLocalAllowRule } from '../../permissions/settings-writer.js';
import { createRuntime, sweepLeftoverTemps } from '../../runtime/create-runtime.js';
import { redactSecrets } from '../../text/redact-secrets.js';
import { loadSessionCommands } from '../../driver/open-session.js';
import { runtimeOptions } from '../bootstrap.js';
import type { CliOptions } from '../cli-options.js';
import { EXIT_AGENT_FAILURE, EXIT_OK, printError } from '../exit-codes.js';

/** stdout as a web stream whose text has the key values mca holds replaced (a model could echo one). */
function redactedStdout(out: WritableStream<Uint8Array>, secrets: readonly string[]): WritableStream<Uint8Array> {
  if (secrets.length === 0) return out;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const redact = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(encoder.encode(redactSecrets(decoder.decode(chunk, { stream: true }), secrets)));
    },
  });
  void redact.readable.pipeTo(out).catch(() => undefined);
  return redact.writable as WritableStream<Uint8Array>;
}

export async function runAcpMode(options: CliOptions, version: string): Promise<number> {
  const [acp, { AcpServer }, { boundedInput, CLIENT_LINE_MAX_BYTES }, { boundedOutput, MAX_UNREAD_OUTPUT_BYTES }] =
    await Promise.all([
      import('@agentclientprotocol/sdk'),
      import('../../acp/acp-server.js'),
      import('../../acp/bounded-input.js'),
      import('../../acp/bounded-output.js'),
    ]);
  const secrets = credentialSecrets(loadCredentials());
  const log = (line: string): void => printError(redactSecrets(line, secrets));
  const server = new AcpServer({
    version,
    log,
    mcaHome: () => resolveMcaHome(),
    saveRule: (projectRoot, rule) => addLocalAllowRule(projectRoot, rule),
    open: async ({ cwd, session, mcpConfigs, files, commands }) => {
      const base = runtimeOptions(options);
      const runtime = await createRuntime({
        ...base,
        cwd,
        session,
        mcpConfigs: [...(base.mcpConfigs ?? []), ...mcpConfigs],
        ...(files ? { files } : {}),
        ...(commands ? { commands } : {}),
        // One process, several projects: each session's settings `env` stays its own.
        isolateEnvironment: true,
      });
      const customCommands = await loadSessionCommands(runtime, runtime.notices);
      return { runtime, customCommands };
    },
  });
  let dropped = false;
  // The connection the overflow ends (made below, after its stream).
  const live: { connection?: { close(): void } } = {};
  const output = boundedOutput(process.stdout, {
    // MCA_ACP_MAX_UNREAD_BYTES lowers (or raises) what a client may leave unread.
    maxUnread: positiveInteger(process.env.MCA_ACP_MAX_UNREAD_BYTES, MAX_UNREAD_OUTPUT_BYTES),
    overflow: (line) => {
      dropped = true;
      log(line);
      live.connection?.close();
    },
  });
  const stream = acp.ndJsonStream(
    redactedStdout(output, secrets),
    boundedInput(
      process.stdin,
      log,
      // MCA_CLIENT_LINE_MAX_BYTES lowers (or raises) the per-message cap.
      positiveInteger(process.env.MCA_CLIENT_LINE_MAX_BYTES, CLIENT_LINE_MAX_BYTES),
    ),
  );
  const connected = server.app().connect(stream);
  live.connection = connected;
  await connected.closed;
  await server.closeAll();
  await sweepLeftoverTemps(resolveMcaHome());
  // A dropped client's unread output stays queued on stdout (Node cannot discard it) and would keep the process
  // alive: once the sessions closed, mca exits and the queue goes with it.
  if (dropped) process.exit(EXIT_AGENT_FAILURE);
  return EXIT_OK;
}
