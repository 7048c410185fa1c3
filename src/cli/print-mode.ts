/**
 * `mca -p`: one turn, no questions asked. The final answer goes to stdout (or JSON / one event per line);
 * everything else a person should know (notices, retries, compaction fallbacks, errors) goes to stderr.
 */
import type { AgentEvent } from '../agent/events.js';
import type { Usage } from '../providers/types.js';
import { ZERO_USAGE } from '../providers/types.js';
import { loadCustomCommands, matchCustomCommand } from '../commands/custom-commands.js';
import { bootstrap, sweepLeftoverTemps, type Bootstrapped } from './bootstrap.js';
import { CliError, EXIT_AGENT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, printError } from './exit-codes.js';
import type { OutputFormat } from './output-format.js';
import type { CliOptions } from './cli-options.js';
import { redactSecrets } from '../text/redact-secrets.js';
import { readStdinIfPiped } from './stdin.js';
import { installTermination, SIGNAL_EXIT_CODES } from './termination.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}

function snakeUsage(usage: Usage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

/** Lines a person running a script should see on stderr in text mode. */
function stderrLineFor(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'compaction_end':
      return event.message;
    case 'degrade':
    case 'warning':
      return event.message;
    case 'retry':
      return `${event.reason.replace(/[.\s]+$/, '')}; retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt})`;
    default:
      return undefined;
  }
}

interface PermissionDenial {
  tool: string;
  input: unknown;
  reason: string;
}

/** A tool call the permission rules or the mode refused: listed in JSON, one stderr line in text mode. */
function permissionDenialOf(event: AgentEvent): PermissionDenial | undefined {
  if (event.type !== 'tool_end' || event.result.error?.code !== 'PERMISSION_DENIED') return undefined;
  return { tool: event.tool, input: event.input, reason: event.result.error.message };
}

/** `mca -p "/review src/a.ts"`: a custom command becomes its expanded prompt; anything else stays as typed. */
async function expandPrintCommand(
  prompt: string,
  booted: Bootstrapped,
  signal: AbortSignal,
  err: (text: string) => void,
): Promise<string> {
  if (!prompt.trimStart().startsWith('/')) return prompt;
  const notices: string[] = [];
  const commands = await loadCustomCommands(
    { projectRoot: booted.projectRoot, mcaHome: booted.config.mcaHome },
    notices,
  );
  for (const notice of notices) err(notice);
  const matched = matchCustomCommand(prompt, commands);
  if (!matched) return prompt;
  if (matched.command.model) booted.controller.setModel(matched.command.model);
  // Expanding (argument splitting, `!` lines) needs the shell parser: loaded only for a command that matched.
  const { expandForSession } = await import('./command-shell.js');
  return await expandForSession(booted, matched.command, matched.args, signal);
}

async function promptFrom(options: CliOptions): Promise<string> {
  const piped = await readStdinIfPiped();
  const parts = [options.prompt, piped].filter((part): part is string => part !== undefined && part.trim() !== '');
  if (parts.length === 0) throw new CliError('-p needs a prompt: mca -p "your question" (or pipe text into it)');
  return parts.join('\n\n');
}

export async function runPrintMode(options: CliOptions): Promise<number> {
  const prompt = await promptFrom(options);
  const format: OutputFormat = options.outputFormat;
  const booted = await bootstrap(options);
  const { controller, notices } = booted;
  for (const notice of notices) printError(notice);

  // The key can reach an answer or a tool result (a model that ran `printenv`); it never reaches the output.
  const { secrets } = booted;
  const out = (text: string): void => void process.stdout.write(redactSecrets(text, secrets));
  // Text output is the model's: its escape sequences (OSC 52 clipboard, OSC 2 title, SGR 8 hidden text) are
  // shown, never acted on. JSON output escapes control characters itself.
  const outText = (text: string): void => out(neutralizeControlSequences(text));
  const err = (text: string): void => printError(redactSecrets(text, secrets));

  const abort = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const termination = installTermination({ abortTurn: () => abort.abort(), flush: () => controller.close() });

  const input = await expandPrintCommand(prompt, booted, abort.signal, err);

  let end: Extract<AgentEvent, { type: 'turn_end' }> | undefined;
  const denials: PermissionDenial[] = [];
  // Whatever fails (the loop, closing the session file) becomes the turn's error: the output format still
  // prints its result, with one clear line on stderr.
  let failure: string | undefined;
  try {
    for await (const event of controller.run(input, { signal: abort.signal })) {
      if (format === 'stream-json') out(`${JSON.stringify(event)}\n`);
      else if (format === 'text') {
        const line = stderrLineFor(event);
        if (line) err(line);
      }
      if (event.type === 'turn_end') end = event;
      const denial = permissionDenialOf(event);
      if (denial) {
        denials.push(denial);
        if (format === 'text') err(`permission denied: ${denial.reason}`);
      }
    }
  } catch (error) {
    failure = `The turn failed: ${oneLine(error)}`;
  } finally {
    process.off('SIGINT', onSigint);
    termination.uninstall();
  }
  try {
    controller.close();
  } catch (error) {
    // The answer (if any) stands; the user still learns that the session file may be incomplete.
    err(`Could not close the session: ${oneLine(error)}`);
  }
  // MCP servers end before the answer is printed: a server's process or socket must not keep mca alive.
  await booted.mcp?.close();
  if (failure !== undefined && end === undefined) {
    end = { type: 'turn_end', reason: 'error', answer: failure, steps: 0, usage: ZERO_USAGE };
  }
  const terminatedBy = termination.signal();
  if (terminatedBy !== undefined) {
    err(`stopped by ${terminatedBy}; the turn was closed and the session saved`);
    return SIGNAL_EXIT_CODES[terminatedBy];
  }

  const failed = !end || end.reason === 'error' || end.reason === 'step_limit' || end.reason === 'interrupted';
  const answer = end?.answer ?? 'the turn ended without an answer';
  if (format === 'json') {
    const result = {
      result: answer,
      session_id: controller.sessionId,
      steps: end?.steps ?? 0,
      usage: snakeUsage(end?.usage ?? ZERO_USAGE),
      is_error: failed,
      stop_reason: end?.reason ?? 'error',
      permission_denials: denials,
    };
    out(`${JSON.stringify(result)}\n`);
  } else if (format === 'text') {
    if (failed) err(answer);
    else outText(answer.endsWith('\n') ? answer : `${answer}\n`);
  }
  // The answer is out; the run ends with the temp files a killed mca left removed (from their journals).
  await sweepLeftoverTemps(booted.config.mcaHome);
  if (end?.reason === 'interrupted') return EXIT_INTERRUPTED;
  return failed ? EXIT_AGENT_FAILURE : EXIT_OK;
}
