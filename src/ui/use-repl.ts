/**
 * The REPL's view over its SessionDriver: the driver owns the conversation (routing, queue, interrupt, mode, model,
 * compaction, session switching); this hook holds what only the screen needs (the transcript, the turn's clock, the
 * permission dialog, the session picker) and hands key actions to the driver. Key handling lives in
 * use-key-handler.ts, the permission dialog's state in use-permission.ts, the slash commands in repl-slash.ts.
 */
import type { ImagePart } from '../text/image-part.js';
import { useApp, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { SessionManager } from '../loop/controller.js';
import type { PermissionMode } from '../config/config.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { DriverEvent } from '../driver/driver-events.js';
import { openSessionNow, type FrontCapabilities, type OpenedSession } from '../driver/open-session.js';
import type { PermissionBroker } from '../driver/permission-broker.js';
import type { SessionDriver } from '../driver/session-driver.js';
import type { ModelPrice } from '../providers/model-prices.js';
import { historyEntries } from './history-replay.js';
import { errorText, initialTokens, showDriverEvent, welcome } from './repl-driver-view.js';
import type { ChoiceState } from './components/choice-picker.js';
import type { ReplInfoPort } from './info-port.js';
import { createReplCommands, type ReplCommands } from './repl-commands.js';
import { createReplSlash, type ExtensionLists, type PickerState } from './repl-slash.js';
import type { ReplMcp } from './mcp-view.js';
import { usageOfHistory } from './session-cost.js';
import { dispatchSlash, type SlashContext } from './slash-commands.js';
import { initialTranscript, transcriptReducer } from './transcript-reducer.js';
import type { TranscriptEntry, TranscriptState } from './transcript-state.js';
import { usePermission } from './use-permission.js';
import { useLatestState } from './use-raw-keys.js';
import type { RewindPort } from './rewind-dialog.js';
import { useRewind } from './use-rewind.js';

export type { PendingPermission } from './use-permission.js';
export type { PickerState } from './repl-slash.js';
export type { Busy } from '../driver/driver-events.js';

/** Opens the REPL's session with what the screen can do (the CLI's openSession over the runtime). */
export type ReplSessionOpener = (front: FrontCapabilities) => OpenedSession;

export interface ReplOptionsInternal {
  sessions: SessionManager;
  /** Opens the session; absent (a view under test): a session over `sessions` alone, no rules, hooks or shell. */
  open?: ReplSessionOpener | undefined;
  onExit?: (() => void) | undefined;
  /**
   * Filled with "stop the running turn and resolve once its round is closed" (SIGTERM/SIGHUP: the round is closed
   * in the session file at once, not at the next load).
   */
  terminator?: { current: (() => Promise<void>) | null } | undefined;
  now: () => number;
  /** `mca "question"`: submitted once, as if typed, when the REPL opens. */
  initialPrompt?: string | undefined;
  /** `mca -r` without an id: the session picker opens first. */
  openPicker?: boolean | undefined;
  /** The permission rules, for /permissions (the session's decision point has them from `open`). */
  policy?: PermissionPolicy | undefined;
  /** Writes an allow rule to the project's .claude/settings.local.json ("always allow"); returns the file. */
  saveRule?: ((rule: string) => string) | undefined;
  /** Clears the terminal and writes the transcript again (at the current width, in the current mode). */
  redraw: () => void;
  /** Price overrides from config, for /cost. */
  prices?: Readonly<Record<string, ModelPrice>> | undefined;
  /** Installation details and files for /status, /config, /doctor, `#`, /memory, /export. */
  info?: ReplInfoPort | undefined;
  /** What /skills and /agents show. */
  extensionLists?: ExtensionLists | undefined;
  /** The project's checkpoints (`/rewind`); absent: checkpoints are off. */
  checkpoints?: RewindPort | undefined;
  /** The MCP servers (/mcp). */
  mcp?: ReplMcp | undefined;
}

/** The session, opened once per REPL; its driver's events reach `listen` (which the hook points at the current view). */
function useSession(
  options: ReplOptionsInternal,
  broker: PermissionBroker,
  slash: { current: SlashContext | null },
  commands: { current: ReplCommands | null },
  listen: { current: (event: DriverEvent) => void },
): OpenedSession {
  const ref = useRef<OpenedSession | null>(null);
  if (ref.current === null) {
    const open: ReplSessionOpener = options.open ?? ((front) => openSessionNow({ sessions: options.sessions }, front));
    ref.current = open({
      broker,
      slash: (parsed) => {
        if (slash.current) dispatchSlash(parsed, slash.current);
      },
      userShell: true,
      memoryNote: (note) => commands.current?.memoryNote(note),
      applyCommandModel: 'turn',
    });
    ref.current.driver.subscribe((event) => listen.current(event));
  }
  const { driver } = ref.current;
  if (options.terminator) options.terminator.current = () => stopRunning(driver);
  return ref.current;
}

export function useRepl(options: ReplOptionsInternal) {
  const { onExit, now, initialPrompt, openPicker, saveRule, redraw, prices, info, policy } = options;
  const app = useApp();
  const { stdout } = useStdout();
  const [choiceRef, setChoice] = useLatestState<ChoiceState | null>(() => null);
  const [startedAtRef, setStartedAt] = useLatestState<number>(() => now());
  const [pickerRef, setPicker] = useLatestState<PickerState | null>(() => null);
  const [, rerender] = useReducer((tick: number) => tick + 1, 0);
  const permission = usePermission({ now, onResume: (paused) => setStartedAt((at) => at + paused) });
  const permissionNow = useRef(permission);
  permissionNow.current = permission;
  // The driver is made once; it reaches the newest broker through this one.
  const broker = useMemo<PermissionBroker>(
    () => ({
      ask: (request) => permissionNow.current.broker.ask(request),
      cancel: (reason) => permissionNow.current.broker.cancel(reason),
    }),
    [],
  );
  const slashRef = useRef<SlashContext | null>(null);
  const commandsRef = useRef<ReplCommands | null>(null);
  const listen = useRef<(event: DriverEvent) => void>(() => undefined);
  const session = useSession(options, broker, slashRef, commandsRef, listen);
  const { driver } = session;
  const controller = driver.controller;

  const [transcript, dispatch] = useReducer(transcriptReducer, controller, (first): TranscriptState => ({
    ...initialTranscript([...historyEntries(first.history()), welcome(first)]),
    contextTokens: initialTokens(first),
    sessionUsage: usageOfHistory(first.history()),
  }));
  const transcriptRef = useRef(transcript);
  transcriptRef.current = transcript;

  const append = useCallback((entry: TranscriptEntry) => dispatch({ type: 'append', entry }), []);
  const notice = useCallback(
    (text: string, tone: 'info' | 'warning' | 'error' = 'info') => append({ kind: 'notice', text, tone }),
    [append],
  );
  listen.current = (event) =>
    showDriverEvent(event, { dispatch, notice, startClock: () => setStartedAt(now()), redraw, rerender });

  /** "Always allow": the rule goes to .claude/settings.local.json; the session already remembers it. */
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

  const interrupt = useCallback(() => driver.interrupt(), [driver]);
  const exit = useCallback(() => {
    driver.interrupt();
    const leave = (): void => {
      onExit?.();
      app.exit();
    };
    // SessionEnd hooks run before the REPL goes (bounded by their timeouts); without hooks it goes at once. The
    // CLI closes the rest of the session (MCP servers, the session file) once the REPL is gone.
    if (driver.hooksActive) void driver.close('prompt_input_exit').then(leave);
    else leave();
  }, [app, driver, onExit]);

  // SessionStart hooks run when the REPL opens (their context goes with the first prompt).
  useEffect(() => {
    if (driver.hooksActive) void driver.start();
  }, [driver]);

  const commands = useMemo(
    () =>
      createReplCommands({
        driver,
        notice,
        setChoice,
        info,
        policy,
        saveRule,
        writeTerminal: (text) => void stdout.write(text),
        redraw,
        mcp: options.mcp?.control,
      }),
    [driver, info, notice, policy, redraw, saveRule, setChoice, stdout, options.mcp],
  );
  commandsRef.current = commands;

  const rewind = useRewind({ port: options.checkpoints, driver, notice });
  const slash = useMemo(
    () =>
      createReplSlash({
        driver,
        append,
        notice,
        setPicker,
        sessionUsage: () => transcriptRef.current.sessionUsage,
        prices,
        extensionLists: options.extensionLists,
        exit,
        commands,
        rewind,
      }),
    [append, commands, driver, exit, notice, prices, setPicker, rewind],
  );
  slashRef.current = slash;

  const initialSent = useRef(false);
  useEffect(() => {
    if (!initialPrompt || initialSent.current) return;
    initialSent.current = true;
    void driver.run(initialPrompt);
  }, [driver, initialPrompt]);

  const pickerOpened = useRef(false);
  useEffect(() => {
    if (!openPicker || pickerOpened.current) return;
    pickerOpened.current = true;
    slash.openSessionPicker();
  }, [openPicker, slash]);

  /** Read synchronously by key handlers, which may run several keys before React re-renders. */
  const busyRef = useMemo(
    () => ({
      get current() {
        return driver.busy;
      },
    }),
    [driver],
  );

  return {
    controller,
    /** The custom commands (files and MCP prompts) the session routes: /help and suggestions list them. */
    customCommands: driver.customCommands,
    model: driver.model,
    transcript,
    busyRef,
    startedAt: startedAtRef.current,
    queue: driver.queue,
    dropQueued: () => driver.dropQueued(),
    /** Ctrl-L: what was shown is not written again after the screen is cleared. */
    clearItems: () => dispatch({ type: 'clear_items' }),
    permission,
    permissionRef: permission.permissionRef,
    setPermission: permission.setPermission,
    answerPermission: permission.answerPermission,
    saveRule: saveAllowRule,
    mode: driver.mode,
    setMode: (mode: PermissionMode) => driver.setMode(mode),
    cycleMode: () => driver.cycleMode(),
    pickerRef,
    setPicker,
    choiceRef,
    setChoice,
    rewind,
    submit: (text: string, images: readonly ImagePart[] = []) => driver.submit(text, images),
    interrupt,
    exit,
    slash,
    notice,
  };
}

export type ReplCore = ReturnType<typeof useRepl>;

/** Interrupts the driver's run, if any, and resolves when the driver is idle again (the round closed). */
function stopRunning(driver: SessionDriver): Promise<void> {
  if (driver.busy === null) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = driver.subscribe((event) => {
      if (event.type === 'busy' && event.busy === null) {
        unsubscribe();
        resolve();
      }
    });
    driver.interrupt();
  });
}
