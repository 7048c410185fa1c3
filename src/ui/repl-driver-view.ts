/**
 * How the REPL shows what its SessionDriver reports: agent events and the driver's own (lines run, shell lines,
 * stops, notices, session switches) become transcript actions; state changes only re-render.
 */
import type { AgentController } from '../loop/controller.js';
import type { DriverEvent } from '../driver/driver-events.js';
import { historyEntries } from './history-replay.js';
import { usageOfHistory } from './session-cost.js';
import type { TranscriptAction, TranscriptEntry } from './transcript-state.js';

export interface DriverView {
  dispatch(action: TranscriptAction): void;
  notice(text: string, tone?: 'info' | 'warning' | 'error'): void;
  /** A run started: the turn's clock starts now. */
  startClock(): void;
  /** Clears the terminal and writes the transcript again (`/clear`). */
  redraw(): void;
  rerender(): void;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function welcome(controller: AgentController): TranscriptEntry {
  return {
    kind: 'notice',
    tone: 'dim',
    text: `mca · ${controller.model} · session ${controller.sessionId.slice(0, 8)} · /help for commands`,
  };
}

export function initialTokens(controller: AgentController): number | null {
  const last = controller.contextReport().lastUsage;
  return last > 0 ? last : null;
}

function showStop(event: Extract<DriverEvent, { type: 'run_end' }>, view: DriverView): void {
  if ('error' in event) {
    const message = event.aborted ? 'Interrupted' : `Error: ${errorText(event.error)}`;
    return view.dispatch({ type: 'stopped', message });
  }
  if (event.kind === 'compact') return view.dispatch({ type: 'stopped' });
  if (!event.ended) view.dispatch({ type: 'stopped', message: event.aborted ? 'Interrupted' : undefined });
}

/** Applies one driver event to the REPL's view. */
export function showDriverEvent(event: DriverEvent, view: DriverView): void {
  switch (event.type) {
    case 'prompt':
      return view.dispatch({ type: 'user', text: event.text });
    case 'run_end':
      return showStop(event, view);
    case 'shell_start':
      return view.dispatch({ type: 'shell_start', command: event.command });
    case 'shell_end':
      view.dispatch({ type: 'stopped' });
      return view.dispatch({ type: 'append', entry: { kind: 'shell', command: event.command, result: event.result } });
    case 'command_failed':
      return view.notice(`/${event.name} failed: ${errorText(event.error)}`, 'error');
    case 'notice':
      return view.notice(event.text, event.tone);
    case 'prompt_blocked':
      return view.notice(`Prompt not sent: a UserPromptSubmit hook blocked it: ${event.reason}`, 'warning');
    case 'session_switched': {
      const next = event.controller;
      if (event.clear) view.redraw();
      const usage = usageOfHistory(next.history());
      view.dispatch({ type: 'switch_session', tokens: initialTokens(next), usage, clear: event.clear });
      for (const entry of historyEntries(next.history())) view.dispatch({ type: 'append', entry });
      view.notice(event.message);
      return view.rerender();
    }
    case 'busy':
      if (event.busy) view.startClock();
      return view.rerender();
    case 'queue':
    case 'mode':
    case 'model':
      return view.rerender();
    default:
      return view.dispatch({ type: 'event', event });
  }
}
