/**
 * The interactive REPL: finished transcript items in <Static> (written once, written again after a redraw), a
 * small live area for the running step, queued messages, then the prompt (or permission dialog / session picker),
 * suggestions and the status line.
 */
import { Box, Static, Text } from 'ink';
import React, { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { SessionManager } from '../loop/controller.js';
import type { ModelPrice } from '../providers/model-prices.js';
import type { ExtensionLists } from './repl-slash.js';
import type { ReplMcp } from './mcp-view.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { Usage } from '../providers/types.js';
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import { ChoicePicker } from './components/choice-picker.js';
import { InputBox } from './components/input-box.js';
import type { ReplInfoPort } from './info-port.js';
import { LiveArea } from './components/live-area.js';
import { PermissionPrompt } from './components/permission-prompt.js';
import { SessionPicker } from './components/session-picker.js';
import { RewindPicker } from './components/rewind-picker.js';
import type { RewindPort } from './rewind-dialog.js';
import { StatusLine } from './components/status-line.js';
import { Suggestions } from './components/suggestions.js';
import { TranscriptItemView } from './components/transcript-item-view.js';
import { costByModel, totalUsage } from './session-cost.js';
import { truncate } from './text-width.js';
import { useKeyHandler } from './use-key-handler.js';
import { useStatusCommand } from './use-status-command.js';
import { useRepl } from './use-repl.js';
import { useScreen } from './use-screen.js';
import type { ReplSessionOpener } from './use-repl.js';

export interface AppProps {
  sessions: SessionManager;
  /** Opens the session (src/driver/open-session.ts); absent (tests): a session over `sessions` alone. */
  open?: ReplSessionOpener;
  /** Submitted once when the REPL opens (`mca "question"`). */
  initialPrompt?: string;
  /** `mca -r` without an id: open the session picker first. */
  openPicker?: boolean;
  /** Input history, oldest first (loaded by runRepl). */
  history?: readonly string[];
  /** Called with the whole history after each submit, for persistence. */
  onHistory?: (history: string[]) => void;
  completePath?: (prefix: string) => Promise<string[]>;
  /** The permission rules, for /permissions (the session applies them from `open`). */
  policy?: PermissionPolicy;
  saveRule?: (rule: string) => string;
  /** Price overrides from config (`modelPrices`), over the built-in table. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Installation details and files for /status, /config, /doctor, `#`, /memory, /export. */
  info?: ReplInfoPort;
  /** What /skills and /agents show. */
  extensionLists?: ExtensionLists;
  /** The MCP servers (/mcp) and resource mentions. */
  mcp?: ReplMcp;
  /** The project's checkpoints, for `/rewind` and Esc Esc. */
  checkpoints?: RewindPort;
  /** Fixed width (tests); otherwise the terminal's, following resizes. */
  columns?: number;
  /** Called once when the user exits (/exit, Ctrl-D, Ctrl-C twice), before Ink unmounts. */
  onExit?: () => void;
  /** Filled by the REPL with "stop the running turn, resolve when its round is closed" (SIGTERM/SIGHUP). */
  terminator?: { current: (() => Promise<void>) | null };
  now?: () => number;
}

function hasUsage(usage: Usage): boolean {
  return usage.inputTokens + usage.outputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens > 0;
}

const noCompletions = async (): Promise<string[]> => [];
const noHistory = (): void => undefined;

function QueuedMessages({ queue, width }: { queue: readonly string[]; width: number }): React.JSX.Element | null {
  if (queue.length === 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      {queue.map((text, index) => (
        <Text key={index} dimColor wrap="truncate-end">
          ⏵ queued: {truncate(neutralizeControlSequences(text).replace(/\s*\n\s*/g, ' ⏎ '), width - 14)}
        </Text>
      ))}
      <Text dimColor>{'  '}sent when the turn ends · Esc removes the last</Text>
    </Box>
  );
}

export function App(props: AppProps): React.JSX.Element {
  const now = props.now ?? Date.now;
  const screen = useScreen(props.columns);
  const width = screen.columns;
  const core = useRepl({
    sessions: props.sessions,
    open: props.open,
    onExit: props.onExit,
    terminator: props.terminator,
    now,
    initialPrompt: props.initialPrompt,
    openPicker: props.openPicker,
    policy: props.policy,
    saveRule: props.saveRule,
    redraw: screen.redraw,
    prices: props.prices,
    info: props.info,
    extensionLists: props.extensionLists,
    checkpoints: props.checkpoints,
    mcp: props.mcp,
  });
  // MCP prompts join the command list as servers connect: show the new list at once.
  const [, commandsChanged] = useReducer((tick: number) => tick + 1, 0);
  const { customCommands } = core;
  useEffect(() => customCommands?.onListChange?.(commandsChanged), [customCommands]);
  const { redraw, toggleVerbose } = screen;
  const clearScreen = useCallback(() => {
    core.clearItems();
    redraw();
  }, [core, redraw]);
  const screenKeys = useMemo(() => ({ clear: clearScreen, toggleVerbose }), [clearScreen, toggleVerbose]);
  const { input, suggestions, selectedSuggestion, exitHint, searchLine } = useKeyHandler({
    core,
    history: props.history ?? [],
    onHistory: props.onHistory ?? noHistory,
    completePath: props.completePath ?? noCompletions,
    customCommands: customCommands?.list ?? [],
    now,
    screen: screenKeys,
    layout: { width, rows: screen.rows },
  });
  const { transcript, controller } = core;
  // contextReport() estimates every layer; ask once per controller, not on every streamed token.
  const contextWindow = useMemo(() => controller.contextReport().contextWindow, [controller]);
  const busy = core.busyRef.current;
  const permission = core.permissionRef.current;
  const picker = core.pickerRef.current;
  const choice = core.choiceRef.current;
  const rewind = core.rewind.rewindRef.current;
  const compacting = busy === 'compact' || transcript.live.compacting !== null;
  const shell = input.text.startsWith('!');
  const placeholder = compacting
    ? 'Compacting conversation… input is paused'
    : busy
      ? 'Working… type ahead to queue a message · Esc or Ctrl-C to interrupt'
      : 'Ask anything · @ to mention a file · ! for a shell command · /help';

  const dollars = hasUsage(totalUsage(transcript.sessionUsage))
    ? costByModel(transcript.sessionUsage, core.model, props.prices).total
    : undefined;
  const customStatus = useStatusCommand(props.info, {
    sessionId: controller.sessionId,
    model: core.model,
    cwd: controller.projectRoot,
    costUsd: dollars ?? 0,
    contextTokens: transcript.contextTokens,
    contextWindow,
  });
  return (
    <Box flexDirection="column" width={width}>
      <Static key={screen.epoch} items={transcript.items}>
        {(item) => (
          <Box key={item.id} width={width}>
            <TranscriptItemView item={item} width={width} verbose={screen.verbose} />
          </Box>
        )}
      </Static>
      <LiveArea
        live={transcript.live}
        width={width}
        startedAt={core.startedAt}
        pausedAt={permission ? permission.since : null}
        now={now}
      />
      <QueuedMessages queue={core.queue} width={width} />
      {permission ? (
        <PermissionPrompt
          request={permission.request}
          selected={permission.selected}
          reason={permission.reason}
          confirmAlways={permission.confirmAlways}
          scroll={permission.scroll}
          width={width}
          rows={screen.rows}
        />
      ) : picker ? (
        <SessionPicker sessions={picker.sessions} selected={picker.selected} width={width} />
      ) : choice ? (
        <ChoicePicker choice={choice} width={width} />
      ) : rewind ? (
        <RewindPicker state={rewind} width={width} />
      ) : (
        <Box flexDirection="column" width={width}>
          <InputBox
            state={input}
            width={width}
            placeholder={placeholder}
            disabled={compacting}
            shell={shell}
            {...(searchLine === undefined ? {} : { searchLine })}
          />
          {!compacting ? (
            <Suggestions items={suggestions} width={width} selected={selectedSuggestion ?? undefined} />
          ) : null}
        </Box>
      )}
      <StatusLine
        custom={customStatus}
        model={core.model}
        mode={core.mode}
        cwd={controller.projectRoot}
        contextTokens={transcript.contextTokens}
        contextWindow={contextWindow}
        sessionId={controller.sessionId}
        width={width}
        hint={exitHint ?? (screen.verbose ? 'verbose transcript · Ctrl-O to leave' : undefined)}
        dollars={dollars}
      />
    </Box>
  );
}
