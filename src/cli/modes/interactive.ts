/** `mca` without -p: the Ink REPL. Needs a terminal; the UI modules load only here. */
import { join } from 'node:path';
import { projectSlug } from '../../store/session-store.js';
import { terminateTrackedGroups } from '../../tools/processes/process-group.js';
import { bootstrap, startSourceOf, sweepLeftoverTemps } from '../bootstrap.js';
import { CliError, EXIT_OK, printError } from '../exit-codes.js';
import { createPathCompleter } from './path-completion.js';
import { loadSessionCommands, openSessionNow, type OpenedSession } from '../../driver/open-session.js';
import { addLocalAllowRule } from '../../permissions/settings-writer.js';
import { askTrustOnce } from './trust-question.js';
import { askMcpApprovalOnce } from '../mcp-approval-question.js';
import { createSessionInfo } from '../session-info.js';
import type { CliOptions } from '../cli-options.js';
import { installTermination, SIGNAL_EXIT_CODES } from '../termination.js';
import { extensionLists, subagentRunsText } from '../../subagents/listings.js';
import { subagentTranscriptDir } from '../../subagents/subagent-steps.js';
import { withResourceCompletion } from '../../runtime/mcp-front.js';
import type { ReplMcp } from '../../ui/mcp-view.js';

export async function runInteractive(options: CliOptions): Promise<number> {
  if (!process.stdin.isTTY) {
    throw new CliError('interactive mode needs a terminal; use mca -p "..." in scripts and pipes');
  }
  const booted = await bootstrap(options, askTrustOnce, askMcpApprovalOnce);
  void sweepLeftoverTemps(booted.config.mcaHome);
  const { sessions, projectRoot, config, notices, policy } = booted;
  const customCommands = await loadSessionCommands(booted, notices);
  for (const notice of notices) printError(notice);
  const { runRepl } = await import('../../ui/run-repl.js');
  // While the user reads the screen and types, the tools' validator and libraries load (after the first render),
  // so the first tool call does not wait ~10-20 ms for them. Print mode does not do this: it has no idle time.
  setImmediate(() => void booted.registry.warm());
  // On SIGTERM/SIGHUP the REPL interrupts its running turn (the round is closed in the session file at once) and
  // unmounts; here the running commands end and the session is flushed. Only a turn that does not stop within the
  // grace period is left open, to be closed (as stopped unexpectedly) when the session is next loaded.
  const termination = installTermination({ abortTurn: () => undefined, flush: () => sessions.close() });
  let opened: OpenedSession | undefined;
  try {
    await runRepl({
      sessions,
      open: (front) =>
        (opened = openSessionNow(booted, {
          ...front,
          customCommands,
          startSource: startSourceOf(options),
          warn: printError,
        })),
      inputHistoryPath: join(config.mcaHome, 'projects', projectSlug(projectRoot), 'input-history.jsonl'),
      inputHistorySecrets: booted.secrets,
      completePath: withResourceCompletion(booted, createPathCompleter(projectRoot)),
      ...(booted.checkpoints.enabled ? { checkpoints: booted.checkpoints } : {}),
      policy,
      saveRule: (rule: string) => addLocalAllowRule(projectRoot, rule),
      openPicker: options.pickSession,
      prices: config.modelPrices,
      info: createSessionInfo(booted, notices),
      extensionLists: {
        ...extensionLists(booted.extensions),
        runs: () => subagentRunsText(subagentTranscriptDir(booted.transcriptPathOf(sessions.current().sessionId))),
      },
      ...replMcp(booted),
      ...(options.prompt ? { initialPrompt: options.prompt } : {}),
    });
  } finally {
    termination.uninstall();
  }
  const signal = termination.signal();
  if (signal !== undefined) {
    await Promise.all([terminateTrackedGroups(), booted.mcp?.close()]);
    sessions.close();
    // A model call may still be in flight; it must not keep the process alive.
    process.exit(SIGNAL_EXIT_CODES[signal]);
  }
  // SessionEnd hooks ran when the person left (the REPL's exit); the MCP servers and the session file end here.
  await opened?.close('prompt_input_exit');
  return EXIT_OK;
}

/** /mcp for the REPL, when servers are configured. */
function replMcp(booted: Awaited<ReturnType<typeof bootstrap>>): { mcp?: ReplMcp } {
  return booted.mcp ? { mcp: { control: booted.mcp } } : {};
}
