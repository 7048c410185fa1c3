/**
 * The interactive REPL: finished transcript items in <Static> (written once), a small live area for the
 * running step, then the prompt (or permission dialog / session picker), suggestions and the status line.
 */
import { Box, Static, useStdout } from 'ink';
import React, { useEffect, useMemo, useState } from 'react';
import type { SessionManager } from '../agent/controller.js';
import { InputBox } from './components/input-box.js';
import { LiveArea } from './components/live-area.js';
import { PermissionPrompt } from './components/permission-prompt.js';
import { SessionPicker } from './components/session-picker.js';
import { StatusLine } from './components/status-line.js';
import { Suggestions } from './components/suggestions.js';
import { TranscriptItemView } from './components/transcript-item-view.js';
import { suggestSlashCommands } from './slash-commands.js';
import { useKeyHandler } from './use-key-handler.js';
import { useRepl } from './use-repl.js';

export interface AppProps {
  sessions: SessionManager;
  /** Submitted once when the REPL opens (`mca "question"`). */
  initialPrompt?: string;
  /** Input history, oldest first (loaded by runRepl). */
  history?: readonly string[];
  /** Called with the whole history after each submit, for persistence. */
  onHistory?: (history: string[]) => void;
  completePath?: (prefix: string) => Promise<string[]>;
  /** Fixed width (tests); otherwise the terminal's, following resizes. */
  columns?: number;
  /** Called once when the user exits (/exit, Ctrl-D, Ctrl-C twice), before Ink unmounts. */
  onExit?: () => void;
  now?: () => number;
}

const noCompletions = async (): Promise<string[]> => [];
const noHistory = (): void => undefined;

function useColumns(fixed: number | undefined): number {
  const { stdout } = useStdout();
  const [columns, setColumns] = useState(() => fixed ?? stdout.columns ?? 80);
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = (): void => setColumns(stdout.columns ?? 80);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [fixed, stdout]);
  return Math.max(20, fixed ?? columns);
}

export function App(props: AppProps): React.JSX.Element {
  const now = props.now ?? Date.now;
  const width = useColumns(props.columns);
  const core = useRepl({ sessions: props.sessions, onExit: props.onExit, now, initialPrompt: props.initialPrompt });
  const { input, pathSuggestions, exitHint } = useKeyHandler({
    core,
    history: props.history ?? [],
    onHistory: props.onHistory ?? noHistory,
    completePath: props.completePath ?? noCompletions,
    now,
  });
  const { transcript, controller } = core;
  // contextReport() estimates every layer; ask once per controller, not on every streamed token.
  const contextWindow = useMemo(() => controller.contextReport().contextWindow, [controller]);
  const busy = core.busyRef.current;
  const permission = core.permissionRef.current;
  const picker = core.pickerRef.current;
  const compacting = busy === 'compact' || transcript.live.compacting !== null;
  const slashSuggestions = suggestSlashCommands(input.text).map((command) => ({
    label: command.usage,
    description: command.description,
  }));
  const suggestions =
    slashSuggestions.length > 0 ? slashSuggestions : pathSuggestions.map((path) => ({ label: `@${path}` }));
  const placeholder = compacting
    ? 'Compacting conversation… input is paused'
    : busy
      ? 'Working… (Ctrl-C or Esc to interrupt)'
      : 'Ask anything · @ to mention a file · /help';

  return (
    <Box flexDirection="column" width={width}>
      <Static items={transcript.items}>
        {(item) => (
          <Box key={item.id} width={width}>
            <TranscriptItemView item={item} width={width} />
          </Box>
        )}
      </Static>
      <LiveArea live={transcript.live} width={width} startedAt={core.startedAt} now={now} />
      {permission ? (
        <PermissionPrompt
          request={permission.request}
          selected={permission.selected}
          reason={permission.reason}
          width={width}
        />
      ) : picker ? (
        <SessionPicker sessions={picker.sessions} selected={picker.selected} width={width} />
      ) : (
        <Box flexDirection="column" width={width}>
          <InputBox state={input} width={width} placeholder={placeholder} disabled={compacting} />
          {!busy ? <Suggestions items={suggestions} width={width} /> : null}
        </Box>
      )}
      <StatusLine
        model={core.model}
        cwd={controller.projectRoot}
        contextTokens={transcript.contextTokens}
        contextWindow={contextWindow}
        sessionId={controller.sessionId}
        width={width}
        hint={exitHint}
      />
    </Box>
  );
}
