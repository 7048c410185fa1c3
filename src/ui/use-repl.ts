/**
 * The REPL's session logic: the current controller, running turns and compactions, the approver,
 * the session picker and the slash-command context. Key handling lives in use-key-handler.ts.
 */
import { useApp } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { AgentController, SessionInfo, SessionManager } from '../agent/controller.js';
import type { AgentEvent } from '../agent/events.js';
import type { ApprovalDecision, ApprovalRequest } from '../tools/tool-context.js';
import type { InputState } from './input-state.js';
import type { SlashContext } from './slash-commands.js';
import {
  initialTranscript,
  transcriptReducer,
  type TranscriptEntry,
  type TranscriptState,
} from './transcript-reducer.js';
import { useLatestState } from './use-raw-keys.js';
import { historyEntries } from './history-replay.js';

export interface PendingPermission {
  request: ApprovalRequest;
  resolve: (decision: ApprovalDecision) => void;
  selected: number;
  /** The reason being typed after option 3; null while choosing. */
  reason: InputState | null;
}

export interface PickerState {
  sessions: SessionInfo[] | null;
  selected: number;
}

export type Busy = null | 'turn' | 'compact';

export interface ReplOptionsInternal {
  sessions: SessionManager;
  onExit?: (() => void) | undefined;
  now: () => number;
  /** `mca "question"`: submitted once, as if typed, when the REPL opens. */
  initialPrompt?: string | undefined;
}

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

export function useRepl({ sessions, onExit, now, initialPrompt }: ReplOptionsInternal) {
  const app = useApp();
  const [controllerRef, setController] = useLatestState<AgentController>(() => sessions.current());
  const controller = controllerRef.current;
  const [modelRef, setModel] = useLatestState<string>(() => controller.model);
  const [transcript, dispatch] = useReducer(transcriptReducer, controller, (first): TranscriptState => ({
    ...initialTranscript([...historyEntries(first.history()), welcome(first)]),
    contextTokens: initialTokens(first),
  }));
  const [busyRef, setBusy] = useLatestState<Busy>(() => null);
  const [permissionRef, setPermission] = useLatestState<PendingPermission | null>(() => null);
  const [pickerRef, setPicker] = useLatestState<PickerState | null>(() => null);
  const [startedAtRef, setStartedAt] = useLatestState<number>(() => now());
  const abortRef = useRef<AbortController | null>(null);

  const append = useCallback((entry: TranscriptEntry) => dispatch({ type: 'append', entry }), []);
  const notice = useCallback(
    (text: string, tone: 'info' | 'warning' | 'error' = 'info') => append({ kind: 'notice', text, tone }),
    [append],
  );

  const approver = useCallback(
    (request: ApprovalRequest) =>
      new Promise<ApprovalDecision>((resolve) => {
        setPermission({ request, resolve, selected: 0, reason: null });
      }),
    [setPermission],
  );

  // The approver belongs to one controller: set it again whenever /clear or /resume swaps controllers.
  useEffect(() => {
    controller.setApprover(approver);
  }, [controller, approver]);

  const answerPermission = useCallback(
    (decision: ApprovalDecision) => {
      const pending = permissionRef.current;
      if (!pending) return;
      setPermission(null);
      pending.resolve(decision);
    },
    [permissionRef, setPermission],
  );

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
      }
    },
    [answerPermission, now, setBusy, setStartedAt],
  );

  const runTurn = useCallback(
    (text: string) => {
      dispatch({ type: 'user', text });
      void drive('turn', (signal) => controllerRef.current.run(text, { signal }));
    },
    [controllerRef, drive],
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
    (next: AgentController, message: string) => {
      setController(next);
      setModel(next.model);
      dispatch({ type: 'set_context_tokens', tokens: initialTokens(next) });
      for (const entry of historyEntries(next.history())) append(entry);
      notice(message);
    },
    [append, notice, setController, setModel],
  );

  const resumeSession = useCallback(
    (id: string) => {
      setPicker(null);
      sessions.resume(id).then(
        (next) => switchTo(next, `Resumed session ${next.sessionId.slice(0, 8)} (${next.history().length} messages).`),
        (error: unknown) => notice(`Cannot resume ${id}: ${errorText(error)}`, 'error'),
      );
    },
    [notice, sessions, setPicker, switchTo],
  );

  const slash: SlashContext = useMemo(
    () => ({
      showHelp: () => append({ kind: 'help' }),
      clearSession: () => {
        // Promise.resolve: the contract's newSession may be sync or async.
        Promise.resolve(sessions.newSession()).then(
          (next) => switchTo(next, `Started a new session ${next.sessionId.slice(0, 8)}.`),
          (error: unknown) => notice(`Cannot start a new session: ${errorText(error)}`, 'error'),
        );
      },
      compact,
      showContext: () => append({ kind: 'context', report: controllerRef.current.contextReport() }),
      showTodos: () => append({ kind: 'todos', todos: [...controllerRef.current.todos()] }),
      showModel: () => notice(`Model: ${modelRef.current}`),
      setModel: (name: string) => {
        controllerRef.current.setModel(name);
        setModel(name);
        notice(`Model set to ${name}.`);
      },
      openSessionPicker: () => {
        setPicker({ sessions: null, selected: 0 });
        sessions.listSessions().then(
          (list) => setPicker((current) => (current ? { ...current, sessions: list } : current)),
          (error: unknown) => {
            setPicker(null);
            notice(`Cannot list sessions: ${errorText(error)}`, 'error');
          },
        );
      },
      resumeSession,
      exit,
      notice,
    }),
    [append, compact, controllerRef, exit, modelRef, notice, resumeSession, sessions, setModel, setPicker, switchTo],
  );

  return {
    controller,
    model: modelRef.current,
    transcript,
    busyRef,
    startedAt: startedAtRef.current,
    permissionRef,
    setPermission,
    answerPermission,
    pickerRef,
    setPicker,
    runTurn,
    interrupt,
    exit,
    slash,
    notice,
  };
}

export type ReplCore = ReturnType<typeof useRepl>;
