/**
 * `mca --input-format stream-json --output-format stream-json` (with or without -p): the Agent SDK's way to run
 * Claude Code's CLI, served by src/headless over this process's stdin and stdout. Exits 0 when stdin ends and every
 * message has its result (an error result does not change that: the host read it); 130 on SIGINT.
 */
import { HeadlessSession } from '../../headless/headless-session.js';
import { redactSecrets } from '../../text/redact-secrets.js';
import { loadSessionCommands, openSession } from '../../driver/open-session.js';
import { bootstrap, startSourceOf, sweepLeftoverTemps } from '../bootstrap.js';
import { applyClaudeCodeOptions, claudeCodeSession, loadClaudeCodeForms } from './claude-code-session.js';
import { positiveInteger } from '../../config/env-number.js';
import { LineReader, readLines } from '../../text/line-reader.js';
import { EXIT_INTERRUPTED, EXIT_OK, printError } from '../exit-codes.js';

/** The largest stdin message (a user message with images included; 20 images of 5 MB are about 140 MB in base64
 * but one request carries at most 18 MB of them, so a larger message could never be sent whole). */
const HOST_LINE_MAX_BYTES = 64 * 1024 * 1024;

/** MCA_HOST_LINE_MAX_BYTES lowers (or raises) the cap; anything but a positive whole number keeps the default. */
function hostLineMaxBytes(): number {
  return positiveInteger(process.env.MCA_HOST_LINE_MAX_BYTES, HOST_LINE_MAX_BYTES);
}
import type { CliOptions } from '../cli-options.js';
import { forgetSession, installBudget, loadBudgetCode } from '../unattended.js';
import { installTermination, SIGNAL_EXIT_CODES, terminatedEnd, type Termination } from '../termination.js';
import { StallWatchdog, stallTimeoutMs } from '../stall-watchdog.js';

export async function runHeadlessMode(options: CliOptions, version: string): Promise<number> {
  // Installed once the session exists; the session's results read it (a turn SIGTERM stopped says so).
  const installed: { termination?: Termination } = {};
  const booted = await bootstrap(options);
  const { secrets, controller } = booted;
  const warn = (line: string): void => printError(redactSecrets(line, secrets));
  for (const notice of booted.notices) warn(notice);
  applyClaudeCodeOptions(booted, options);
  const forms = await loadClaudeCodeForms();
  const budgetCode = await loadBudgetCode(options.claudeCode);
  const { claudeCode } = options;
  const askHost = claudeCode.permissionPromptTool === 'stdio';
  if (claudeCode.permissionPromptTool !== undefined && !askHost) {
    warn(
      `--permission-prompt-tool ${claudeCode.permissionPromptTool}: only "stdio" is supported; calls that need a yes are denied`,
    );
  }
  // Custom slash commands run from a host's user message as from the REPL's prompt, and initialize lists them.
  const commandNotices: string[] = [];
  const customCommands = await loadSessionCommands(booted, commandNotices);
  for (const notice of commandNotices) warn(notice);
  const stallMs = stallTimeoutMs();
  let watchdog: StallWatchdog | undefined;
  const session = await HeadlessSession.open({
    adjustEnd: (end) => {
      const signal = installed.termination?.signal();
      return signal !== undefined ? terminatedEnd(signal, end) : (watchdog?.take(end) ?? end);
    },
    replayUserMessages: claudeCode.replayUserMessages,
    includeHookEvents: claudeCode.includeHookEvents,
    runtime: booted,
    open: (broker) =>
      openSession(booted, {
        broker,
        customCommands,
        startSource: startSourceOf(options),
        // The SDK host may register hook callbacks in its initialize request, after the driver exists.
        hostHooks: true,
        warn,
      }),
    version,
    write: (line) => void process.stdout.write(`${redactSecrets(JSON.stringify(line), secrets)}\n`),
    warn,
    info: (driver) => claudeCodeSession(booted, options, version, driver, forms),
    askHost,
    allowBypass: claudeCode.allowBypass,
    flagPrompt: { replace: claudeCode.systemPrompt, append: claudeCode.appendSystemPrompt },
  });
  installBudget(
    booted,
    claudeCode,
    claudeCodeSession(booted, options, version, () => session.driver, forms),
    (listener) => session.driver.subscribe(listener),
    budgetCode,
  );
  if (options.prompt !== undefined && options.prompt.trim() !== '') {
    session.line(JSON.stringify({ type: 'user', message: { role: 'user', content: options.prompt } }));
  }
  if (stallMs !== undefined) {
    const stalled = new StallWatchdog(
      stallMs,
      () => session.driver.interrupt(),
      () => session.waitingForHost,
    );
    watchdog = stalled;
    session.driver.subscribe((event) => stalled.event(event));
  }
  const stopWatching = booted.extensions.events.on(() => watchdog?.progress());
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(EXIT_INTERRUPTED);
    interrupted = true;
    session.driver.interrupt();
  };
  process.on('SIGINT', onSigint);
  const termination = installTermination({
    // The turn's result says it was terminated; the session then finishes as if the host closed its input.
    abortTurn: () => {
      session.driver.interrupt();
      session.endInput();
    },
    flush: () => controller.close(),
  });
  installed.termination = termination;
  // One NDJSON message per line, each at most HOST_LINE_MAX_BYTES: a host that sends an endless line costs a
  // warning, not mca's memory; the lines after it still run.
  readLines(process.stdin, new LineReader(hostLineMaxBytes(), 'the host'), {
    line: (text) => session.line(text),
    tooLong: (error) => warn(`ignored a stdin line: ${error.message}`),
    end: () => session.endInput(),
  });
  try {
    await session.finished;
  } finally {
    process.off('SIGINT', onSigint);
    termination.uninstall();
    watchdog?.stop();
    stopWatching();
  }
  // SessionEnd hooks, then the MCP servers (their pipes would otherwise keep mca running after stdin ended, and
  // leave their processes behind), then the session file: as in every front.
  await session.close('other');
  try {
    // --no-session-persistence: the closed session's file and checkpoints go.
    forgetSession(booted, claudeCode, session.driver.controller.sessionId);
  } catch (error) {
    warn(`Could not remove the session: ${error instanceof Error ? error.message : String(error)}`);
  }
  await sweepLeftoverTemps(booted.config.mcaHome);
  const signal = termination.signal();
  if (signal !== undefined) return SIGNAL_EXIT_CODES[signal];
  return interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}
