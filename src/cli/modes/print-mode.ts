/**
 * `mca -p`: one line, no questions asked, through the same SessionDriver as the REPL. The output sink of the chosen
 * format writes the answer to stdout (or JSON / one event per line); everything else a person should know (notices,
 * retries, compaction fallbacks, errors) goes to stderr.
 */
import { randomUUID } from 'node:crypto';
import { ZERO_USAGE } from '../../providers/types.js';
import { McaError } from '../../errors/mca-error.js';
import { isAgentEvent, PROMPT_INTERRUPTED } from '../../driver/driver-events.js';
import { loadSessionCommands, openSession } from '../../driver/open-session.js';
import { createSink } from '../../sinks/create-sink.js';
import { applyClaudeCodeOptions, claudeCodeSession, loadClaudeCodeForms, PLAIN_FORMS } from './claude-code-session.js';
import type { TurnEnd } from '../../sinks/sink.js';
import { bootstrap, startSourceOf, sweepLeftoverTemps } from '../bootstrap.js';
import { CliError, EXIT_AGENT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, printError } from '../exit-codes.js';
import type { CliOptions } from '../cli-options.js';
import { redactSecrets } from '../../text/redact-secrets.js';
import { readStdinIfPiped } from '../stdin.js';
import { forgetSession, installBudget, loadBudgetCode } from '../unattended.js';
import { installTermination, SIGNAL_EXIT_CODES, terminatedEnd } from '../termination.js';
import { StallWatchdog, stallTimeoutMs } from '../stall-watchdog.js';
import { terminateTrackedGroups } from '../../tools/processes/process-group.js';

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}

async function promptFrom(options: CliOptions): Promise<string> {
  const piped = await readStdinIfPiped();
  const parts = [options.prompt, piped].filter((part): part is string => part !== undefined && part.trim() !== '');
  if (parts.length === 0) throw new CliError('-p needs a prompt: mca -p "your question" (or pipe text into it)');
  return parts.join('\n\n');
}

export async function runPrintMode(options: CliOptions, version: string): Promise<number> {
  const prompt = await promptFrom(options);
  const booted = await bootstrap(options);
  const { controller, notices } = booted;
  applyClaudeCodeOptions(booted, options);
  if (options.claudeCode.permissionPromptTool !== undefined) {
    printError(
      '--permission-prompt-tool needs --input-format stream-json (a host to ask); calls that need a yes are denied',
    );
  }
  for (const notice of notices) printError(notice);

  // The key can reach an answer or a tool result (a model that ran `printenv`); it never reaches the output.
  const { secrets } = booted;
  const err = (text: string): void => printError(redactSecrets(text, secrets));

  // `/name args` of a custom command becomes its expanded prompt; nothing else is routed (built-in slash commands
  // and `!` lines go to the model as typed). Commands load only for a prompt that may name one, or for stream-json's
  // init line, which lists them (`slash_commands`, as Claude Code's does).
  const commandNotices: string[] = [];
  const customCommands =
    prompt.trimStart().startsWith('/') || options.outputFormat === 'stream-json'
      ? await loadSessionCommands(booted, commandNotices)
      : undefined;
  for (const notice of commandNotices) err(notice);
  const opened = await openSession(booted, {
    customCommands,
    applyCommandModel: true,
    startSource: startSourceOf(options),
    warn: err,
  });
  const { driver } = opened;
  const claudeCodeFormat = options.outputFormat === 'json' || options.outputFormat === 'stream-json';
  const forms = claudeCodeFormat ? await loadClaudeCodeForms() : PLAIN_FORMS;
  const session = claudeCodeSession(booted, options, version, () => driver, forms);
  const budgetCode = await loadBudgetCode(options.claudeCode);
  installBudget(booted, options.claudeCode, session, (listener) => driver.subscribe(listener), budgetCode);
  const sink = await createSink(
    options.outputFormat,
    { stdout: (text) => void process.stdout.write(redactSecrets(text, secrets)), stderr: err },
    session,
  );

  if (options.claudeCode.includeHookEvents && options.outputFormat === 'stream-json') {
    // Claude Code's system lines: loaded with stream-json's sink already, never for a text answer.
    const { hookLine } = await import('../../claude-code/system.js');
    booted.hooks.engine?.watch((report) => {
      const line = { ...hookLine(report), uuid: randomUUID(), session_id: controller.sessionId };
      process.stdout.write(redactSecrets(`${JSON.stringify(line)}\n`, secrets));
    });
  }

  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    driver.interrupt();
    // A hook (or any command) that is running holds the turn until it ends: one Ctrl-C ends its process group.
    void terminateTrackedGroups(500);
  };
  process.on('SIGINT', onSigint);
  const termination = installTermination({ abortTurn: () => driver.interrupt(), flush: () => controller.close() });

  const stallMs = stallTimeoutMs();
  const watchdog = stallMs === undefined ? undefined : new StallWatchdog(stallMs, () => driver.interrupt());
  const stopWatching = booted.extensions.events.on(() => watchdog?.progress());

  let end: TurnEnd | undefined;
  // Whatever fails (the loop, closing the session file) becomes the turn's error: the output format still
  // prints its result, with one clear line on stderr.
  let failure: string | undefined;
  let commandError: unknown;
  let blocked: string | undefined;
  driver.subscribe((event) => {
    watchdog?.event(event);
    if (isAgentEvent(event)) {
      sink.event(event);
      if (event.type === 'turn_end') end = event;
    } else if (event.type === 'run_end' && 'error' in event) failure = `The turn failed: ${oneLine(event.error)}`;
    else if (event.type === 'command_failed') commandError = event.error;
    else if (event.type === 'notice') err(event.text);
    // An interrupt during the prompt's hooks is an interrupted run (exit 130), not a blocked prompt.
    else if (event.type === 'prompt_blocked' && event.reason !== PROMPT_INTERRUPTED) blocked = event.reason;
  });
  try {
    // stream-json's init line reports the MCP servers' outcome (connected with tools, or failed), not `pending`.
    if (options.outputFormat === 'stream-json') await booted.mcp?.settled();
    await driver.run(prompt);
  } finally {
    process.off('SIGINT', onSigint);
    termination.uninstall();
    watchdog?.stop();
    stopWatching();
    // SessionEnd hooks, then the MCP servers, then the session file, before the answer is printed. A failed step is
    // one line on stderr: the answer (if any) stands.
    await opened.close('other');
  }
  // A command's own failure (an MCP prompt's missing argument, a server that is not there) is one line, exit 2.
  if (commandError !== undefined)
    throw McaError.isInstance(commandError) ? new CliError(commandError.message) : commandError;
  try {
    // --no-session-persistence: the closed session's file and checkpoints go.
    forgetSession(booted, options.claudeCode, controller.sessionId);
  } catch (error) {
    err(`Could not remove the session: ${oneLine(error)}`);
  }
  if (blocked !== undefined) {
    const answer = `the prompt was not sent: a UserPromptSubmit hook blocked it: ${blocked}`;
    end = { type: 'turn_end', reason: 'error', answer, steps: 0, usage: ZERO_USAGE };
  }
  if (failure !== undefined && end === undefined) {
    end = { type: 'turn_end', reason: 'error', answer: failure, steps: 0, usage: ZERO_USAGE };
  }
  if (end === undefined && interrupts > 0) {
    // Ctrl-C while a command's `!` lines ran: the turn never started.
    end = { type: 'turn_end', reason: 'interrupted', answer: 'Interrupted by user.', steps: 0, usage: ZERO_USAGE };
  }
  end = watchdog?.take(end) ?? end;
  // SIGTERM / SIGHUP: the session file is finished (above), the result line says why, then 143 / 129.
  const terminatedBy = termination.signal();
  if (terminatedBy !== undefined) end = terminatedEnd(terminatedBy, end);

  const failed = !end || end.reason === 'error' || end.reason === 'step_limit' || end.reason === 'interrupted';
  const answer = end?.answer ?? 'the turn ended without an answer';
  sink.finish({ end, answer, failed, sessionId: controller.sessionId });
  if (terminatedBy !== undefined) return SIGNAL_EXIT_CODES[terminatedBy];
  // The answer is out; the run ends with the temp files a killed mca left removed (from their journals).
  await sweepLeftoverTemps(booted.config.mcaHome);
  if (end?.reason === 'interrupted') return EXIT_INTERRUPTED;
  return failed ? EXIT_AGENT_FAILURE : EXIT_OK;
}
