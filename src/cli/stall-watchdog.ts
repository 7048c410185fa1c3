/**
 * The stall watchdog of an unattended run (`-p`, a headless host): while a turn runs, every event of the model or a
 * tool (a streamed piece, a call's start or end, a retry, a subagent's step) is progress. When none came for
 * MCA_STALL_TIMEOUT seconds (default 900, above Bash's and a hook's longest timeout; 0 turns it off) the turn is
 * interrupted, which ends its Bash process groups and subagents, and it ends as an error (STALLED) with one line
 * saying so. While the host is asked about a call (`can_use_tool`) nothing is expected of the model: not a stall.
 */
import { stoppedEnd } from './termination.js';
import type { DriverEvent } from '../driver/driver-events.js';
import type { TurnEnd } from '../sinks/sink.js';

export const DEFAULT_STALL_SECONDS = 900;

/** MCA_STALL_TIMEOUT in ms; undefined: off (`0`). Anything else that is not a positive number keeps the default. */
export function stallTimeoutMs(value: string | undefined = process.env.MCA_STALL_TIMEOUT): number | undefined {
  if (value?.trim() === '0') return undefined;
  const seconds = Number(value);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_STALL_SECONDS) * 1000;
}

export class StallWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private stalled = false;

  constructor(
    private readonly ms: number,
    private readonly interrupt: () => void,
    /** True while the run waits for someone else (the host's answer): the clock starts again afterwards. */
    private readonly waiting: () => boolean = () => false,
  ) {}

  /** Every driver event: a turn's start and each of its events re-arm the clock, its end stops it. */
  event(event: DriverEvent): void {
    if (event.type === 'run_end') return this.disarm();
    if (event.type === 'busy' && event.busy === null) return this.disarm();
    if (event.type === 'notice' || event.type === 'queue' || event.type === 'mode' || event.type === 'model') return;
    this.arm();
  }

  /** Progress outside the driver's events (a subagent's step). */
  progress(): void {
    if (this.timer) this.arm();
  }

  /** The end a stalled turn is reported with (undefined: it did not stall); the watchdog is ready again. */
  take(end: TurnEnd | undefined): TurnEnd | undefined {
    if (!this.stalled) return end;
    this.stalled = false;
    const seconds = Math.round(this.ms / 1000);
    return stoppedEnd(
      'STALLED',
      `Stopped: no progress from the model or a tool for ${seconds} s (MCA_STALL_TIMEOUT); the turn was interrupted.`,
      end,
    );
  }

  stop(): void {
    this.disarm();
  }

  private arm(): void {
    this.disarm();
    this.timer = setTimeout(() => this.fire(), this.ms);
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    if (this.waiting()) return this.arm();
    this.stalled = true;
    this.interrupt();
  }
}
