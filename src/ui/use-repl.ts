/**
 * The REPL's session logic: the current controller, running turns, compactions and `!` commands, messages queued
 * while busy, the approver, the session picker and the slash-command context. Key handling lives in
 * use-key-handler.ts; the permission prompt's state in use-permission.ts.
 */
import { useApp } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { AgentController, SessionInfo, SessionManager } from '../agent/controller.js';
import type { AgentEvent } from '../agent/events.js';
import type { ModelPrice } from '../providers/model-prices.js';
import { errorEnvelope } from '../tools/envelope.js';
import { dispatchSlash, parseSlashCommand, type SlashContext } from './slash-commands.js';
import {
  initialTranscript,
  transcriptReducer,
  type TranscriptEntry,
  type TranscriptState,
} from './transcript-reducer.js';
import { useLatestState } from './use-raw-keys.js';
import { historyEntries } from './history-replay.js';
import { usageOfHistory } from './session-cost.js';
import type { PermissionMode } from '../config/config.js';
import { nextPermissionMode } from '../agent/plan-mode.js';
import type { CustomCommandsPort } from './custom-commands-port.js';
import { formatMemoryList } from './memory-list.js';
import { usePermission } from './use-permission.js';
import { shellCommandOf, shellNote, type ShellRunner } from './user-shell.js';

export type { PendingPermission } from './use-permission.js';

export interface PickerState {
  sessions: SessionInfo[] | null;
  selected: number;
}

export type Busy = null | 'turn' | 'compact' | 'shell';

export interface ReplOptionsInternal {
  sessions: SessionManager;
  onExit?: (() => void) | undefined;
  now: () => number;
  /** `mca "question"`: submitted once, as if typed, when the REPL opens. */
  initialPrompt?: string | undefined;
  /** `mca -r` without an id: the session picker opens first. */
  openPicker?: boolean | undefined;
  runShell?: ShellRunner | undefined;
  customCommands?: CustomCommandsPort | undefined;
  /** Writes an allow rule to the project's .mca/settings.local.json ("always allow"); returns the file. */
  saveRule?: ((rule: string) => string) | undefined;
  /** Clears the terminal and writes the transcript again (at the current width, in the current mode). */
  redraw: () => void;
  /** Price overrides from config, for /cost. */
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
}

/** Slash commands that only show something: they run at once even while a turn is busy. */
const SHOW_COMMANDS = new Set(['help', 'context', 'todos', 'cost']);

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function welcome(controller: AgentController): TranscriptEntry {
  return {
    kind: 'notice',
    tone: 'dim',
    text: `mca · ${controller.model} · session ${controller.sessionId.slice(0, 8)} · /help for commands`,
  };
}

function initialTokens(controller: AgentController): number | null {
  const last = controller.contextReport().lastUsage;
  return last > 0 ? last : null;
}

export function useRepl(options: ReplOptionsInternal) {
  const { sessions, onExit, now, initialPrompt, openPicker, runShell, customCommands, saveRule, redraw, prices } =
    options;
  const app = useApp();
  const [controllerRef, setController] = useLatestState<AgentController>(() => sessions.current());
  const controller = controllerRef.current;
  const [modelRef, setModel] = useLatestState<string>(() => controller.model);
  const [modeRef, setModeState] = useLatestState<PermissionMode>(() => controller.permissionMode);
  const [transcript, dispatch] = useReducer(transcriptReducer, controller, (first): TranscriptState => ({
    ...initialTranscript([...historyEntries(first.history()), welcome(first)]),
    contextTokens: initialTokens(first),
    sessionUsage: usageOfHistory(first.history()),
  }));
  const transcriptRef = useRef(transcript);
  transcriptRef.current = transcript;
  const [busyRef, setBusy] = useLatestState<Busy>(() => null);
  const [pickerRef, setPicker] = useLatestState<PickerState | null>(() => null);
  const [startedAtRef, setStartedAt] = useLatestState<number>(() => now());
  /** Messages typed while busy, sent in order when the agent is free (Esc drops the newest). */
  const [queueRef, setQueue] = useLatestState<string[]>(() => []);
  /** Shell notes waiting for the next message to the model. */
  const notesRef = useRef<string[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const permission = usePermission({ now, onResume: (paused) => setStartedAt((at) => at + paused) });
  const { answerPermission, approver } = permission;

  const append = useCallback((entry: TranscriptEntry) => dispatch({ type: 'append', entry }), []);
  const notice = useCallback(
    (text: string, tone: 'info' | 'warning' | 'error' = 'info') => append({ kind: 'notice', text, tone }),
    [append],
  );

  // The approver belongs to one controller: set it again whenever /clear or /resume swaps controllers.
  useEffect(() => {
    controller.setApprover(approver);
  }, [controller, approver]);

  /** Runs whatever `submit` gives it when the agent is free; set below, called when a run ends. */
  const nextQueued = useRef<() => void>(() => undefined);

  /** Drains one event stream (a turn or a compaction) into the transcript. */
  const drive = useCallback(
    async (kind: 'turn' | 'compact', stream: (signal: AbortSignal) => AsyncGenerator<AgentEvent>) => {
      const abort = new AbortController();
      abortRef.current = abort;
      setBusy(kind);
      setStartedAt(now());
      let ended = kind === 'compact';
      try {
        for await (const event of stream(abort.signal)) {
          if (event.type === 'turn_end') ended = true;
          dispatch({ type: 'event', event });
        }
        if (!ended) dispatch({ type: 'stopped', message: abort.signal.aborted ? 'Interrupted' : undefined });
        else if (kind === 'compact') dispatch({ type: 'stopped' });
      } catch (error) {
        dispatch({ type: 'stopped', message: abort.signal.aborted ? 'Interrupted' : `Error: ${errorText(error)}` });
      } finally {
        if (abortRef.current === abort) abortRef.current = null;
        answerPermission({ approved: false, reason: 'The turn ended before an answer.' });
        setBusy(null);
        nextQueued.current();
      }
    },
    [answerPermission, now, setBusy, setStartedAt],
  );

  /** `shown` is what the transcript shows as the user's line when it differs (a custom command's `/name args`). */
  const runTurn = useCallback(
    (text: string, shown: string = text) => {
      dispatch({ type: 'user', text: shown });
      const notes = notesRef.current;
      notesRef.current = [];
      const input = notes.length > 0 ? `${notes.join('\n\n')}\n\n${text}` : text;
      void drive('turn', (signal) => controllerRef.current.run(input, { signal }));
    },
    [controllerRef, drive],
  );

  const runShellCommand = useCallback(
    async (command: string) => {
      if (!command) return notice('Type a command after ! to run it in the project directory, e.g. !git status.');
      if (!runShell) return notice('Shell commands are not available here.', 'warning');
      const abort = new AbortController();
      abortRef.current = abort;
      setBusy('shell');
      setStartedAt(now());
      dispatch({ type: 'shell_start', command });
      let result;
      try {
        result = await runShell(command, abort.signal);
      } catch (error) {
        result = errorEnvelope('EXECUTION_ERROR', `The command could not run: ${errorText(error)}`);
      }
      if (abortRef.current === abort) abortRef.current = null;
      dispatch({ type: 'stopped' });
      append({ kind: 'shell', command, result });
      notesRef.current.push(shellNote(command, result));
      setBusy(null);
      nextQueued.current();
    },
    [append, notice, now, runShell, setBusy, setStartedAt],
  );

  /** `/name args` of a custom command: its `!` lines run (asking when no rule decides), then it is a turn. */
  const runCustomCommand = useCallback(
    async (text: string, name: string, args: string) => {
      if (!customCommands) return;
      const abort = new AbortController();
      abortRef.current = abort;
      setBusy('shell');
      setStartedAt(now());
      let prompt: string | undefined;
      try {
        prompt = await customCommands.expand(name, args, approver, abort.signal);
      } catch (error) {
        notice(`/${name} failed: ${errorText(error)}`, 'error');
      }
      if (abortRef.current === abort) abortRef.current = null;
      setBusy(null);
      if (prompt !== undefined && !abort.signal.aborted) runTurn(prompt, text);
      else nextQueued.current();
    },
    [approver, customCommands, notice, now, runTurn, setBusy, setStartedAt],
  );

  /** "Always allow": the rule goes to .mca/settings.local.json; the session already remembers it. */
  const saveAllowRule = useCallback(
    (rule: string) => {
      if (!saveRule) return notice(`${rule} is allowed for this session only (no settings file here).`, 'warning');
      try {
        notice(`Saved ${rule} to ${saveRule(rule)} (used in later sessions while the project is trusted).`);
      } catch (error) {
        notice(`Could not save ${rule}: ${errorText(error)}`, 'error');
      }
    },
    [notice, saveRule],
  );

  const initialSent = useRef(false);
  useEffect(() => {
    if (!initialPrompt || initialSent.current) return;
    initialSent.current = true;
    runTurn(initialPrompt);
  }, [initialPrompt, runTurn]);

  const compact = useCallback(
    (focus: string | undefined) => {
      void drive('compact', (signal) => controllerRef.current.compact({ focus, signal }));
    },
    [controllerRef, drive],
  );

  /** Ctrl-C/Esc while busy: abort the run; a pending approval is answered "no" so the tool returns. */
  const interrupt = useCallback(() => {
    answerPermission({ approved: false, reason: 'Interrupted by the user.' });
    abortRef.current?.abort();
  }, [answerPermission]);

  const exit = useCallback(() => {
    interrupt();
    onExit?.();
    app.exit();
  }, [app, interrupt, onExit]);

  const switchTo = useCallback(
    (next: AgentController, message: string, clear: boolean) => {
      setController(next);
      setModel(next.model);
      // The mode the user chose (Shift+Tab, an approved plan) carries over to a new or resumed session.
      next.setPermissionMode(modeRef.current);
      notesRef.current = [];
      if (clear) redraw();
      dispatch({ type: 'switch_session', tokens: initialTokens(next), usage: usageOfHistory(next.history()), clear });
      for (const entry of historyEntries(next.history())) append(entry);
      notice(message);
    },
    [append, modeRef, notice, redraw, setController, setModel],
  );

  const setMode = useCallback(
    (mode: PermissionMode) => {
      controllerRef.current.setPermissionMode(mode);
      setModeState(mode);
    },
    [controllerRef, setModeState],
  );
  /** Shift+Tab: default → acceptEdits → plan → default. */
  const cycleMode = useCallback(
    () => setMode(nextPermissionMode(controllerRef.current.permissionMode)),
    [controllerRef, setMode],
  );

  const resumeSession = useCallback(
    (id: string) => {
      setPicker(null);
      sessions.resume(id).then(
        (next) =>
          switchTo(next, `Resumed session ${next.sessionId.slice(0, 8)} (${next.history().length} messages).`, false),
        (error: unknown) => notice(`Cannot resume ${id}: ${errorText(error)}`, 'error'),
      );
    },
    [notice, sessions, setPicker, switchTo],
  );

  const openSessionPicker = useCallback(() => {
    setPicker({ sessions: null, selected: 0 });
    const current = controllerRef.current.sessionId;
    sessions.listSessions().then(
      (list) => {
        // The session open now and empty ones (opened, nothing asked) are not worth resuming.
        const choices = list.filter((session) => session.id !== current && session.messages > 0);
        setPicker((picker) => (picker ? { ...picker, sessions: choices } : picker));
      },
      (error: unknown) => {
        setPicker(null);
        notice(`Cannot list sessions: ${errorText(error)}`, 'error');
      },
    );
  }, [controllerRef, notice, sessions, setPicker]);

  const pickerOpened = useRef(false);
  useEffect(() => {
    if (!openPicker || pickerOpened.current) return;
    pickerOpened.current = true;
    openSessionPicker();
  }, [openPicker, openSessionPicker]);

  const slash: SlashContext = useMemo(
    () => ({
      showHelp: () => append({ kind: 'help', custom: customCommands?.list ?? [] }),
      clearSession: () => {
        // Promise.resolve: the contract's newSession may be sync or async.
        Promise.resolve(sessions.newSession()).then(
          (next) => switchTo(next, `Started a new session ${next.sessionId.slice(0, 8)}.`, true),
          (error: unknown) => notice(`Cannot start a new session: ${errorText(error)}`, 'error'),
        );
      },
      compact,
      showContext: () => append({ kind: 'context', report: controllerRef.current.contextReport() }),
      showTodos: () => append({ kind: 'todos', todos: [...controllerRef.current.todos()] }),
      showMemory: () => notice(formatMemoryList(controllerRef.current.memoryFiles())),
      showCost: () =>
        append({
          kind: 'cost',
          usage: transcriptRef.current.sessionUsage,
          model: modelRef.current,
          ...(prices ? { prices } : {}),
        }),
      showModel: () => notice(`Model: ${modelRef.current}`),
      setModel: (name: string) => {
        controllerRef.current.setModel(name);
        setModel(name);
        notice(`Model set to ${name}.`);
      },
      openSessionPicker,
      resumeSession,
      exit,
      notice,
    }),
    [
      append,
      compact,
      controllerRef,
      exit,
      modelRef,
      notice,
      openSessionPicker,
      prices,
      resumeSession,
      sessions,
      setModel,
      switchTo,
    ],
  );

  /** Runs a submitted line now: a slash command, a `!` command or a turn. */
  const run = useCallback(
    (text: string) => {
      const parsed = parseSlashCommand(text);
      const custom = parsed?.kind === 'command' ? undefined : customCommands?.match(text);
      if (custom) return void runCustomCommand(text, custom.name, custom.args);
      if (parsed) return dispatchSlash(parsed, slash);
      const command = shellCommandOf(text);
      if (command !== undefined) return void runShellCommand(command);
      runTurn(text);
    },
    [customCommands, runCustomCommand, runShellCommand, runTurn, slash],
  );

  /** Enter: run now, or queue while busy (a slash command that only shows something runs at once). */
  const submit = useCallback(
    (text: string) => {
      const parsed = parseSlashCommand(text);
      const showOnly = parsed?.kind === 'command' && SHOW_COMMANDS.has(parsed.name);
      if (busyRef.current && !showOnly) return setQueue((queue) => [...queue, text]);
      run(text);
    },
    [busyRef, run, setQueue],
  );

  nextQueued.current = () => {
    const [next, ...rest] = queueRef.current;
    if (next === undefined || busyRef.current) return;
    setQueue(rest);
    run(next);
  };

  /** Esc while busy with queued messages: the newest queued one is dropped. */
  const dropQueued = useCallback((): boolean => {
    if (queueRef.current.length === 0) return false;
    setQueue((queue) => queue.slice(0, -1));
    return true;
  }, [queueRef, setQueue]);

  return {
    controller,
    model: modelRef.current,
    transcript,
    busyRef,
    startedAt: startedAtRef.current,
    queue: queueRef.current,
    dropQueued,
    /** Ctrl-L: what was shown is not written again after the screen is cleared. */
    clearItems: () => dispatch({ type: 'clear_items' }),
    permission,
    permissionRef: permission.permissionRef,
    setPermission: permission.setPermission,
    answerPermission,
    saveRule: saveAllowRule,
    mode: modeRef.current,
    setMode,
    cycleMode,
    pickerRef,
    setPicker,
    submit,
    interrupt,
    exit,
    slash,
    notice,
  };
}

export type ReplCore = ReturnType<typeof useRepl>;
