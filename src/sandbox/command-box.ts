/**
 * The session's sandbox as the Bash tool and the decision point see it (DESIGN.md "Sandbox"). Cheap to hold: the
 * proxy, the mounts and socat are set up on the first boxed command (box-session.ts, loaded then), so a session
 * whose commands never enter the box pays nothing for it.
 *
 * Where a command runs (`placement`):
 * - the user's own `!` lines: outside, always (they are the user's own words, like typing in a terminal);
 * - the box off (settings, `--sandbox`, `/sandbox`): outside, the normal decision;
 * - the box on but unavailable (no bubblewrap, no user namespaces): outside, and the decision asks as without a
 *   box; never silently unsandboxed, since nothing runs unasked for the box's sake;
 * - `excludedCommands` (a prefix of the command, as Claude Code matches them): outside, the normal decision;
 * - `dangerouslyDisableSandbox: true`: outside, always asked; refused when `allowUnsandboxedCommands` is false;
 * - otherwise inside, without a question when `autoAllowBashIfSandboxed` (deny and ask rules and hooks first).
 */
import type { BashBox, BashPlace, BoxedSpawn } from '../tools/processes/bash-box.js';
import type { CallSource, SandboxVerdict } from '../tools/registry/tool-context.js';
import type { BoxAvailability } from './availability.js';
import type { BoxPlaces } from './box-layout.js';
import type { SandboxSettings } from './sandbox-settings.js';

export type Placement =
  | { where: 'box'; autoAllow: boolean }
  | { where: 'outside'; why: 'off' | 'user-shell' | 'unavailable' | 'excluded' }
  | { where: 'outside'; why: 'asked'; allowed: boolean };

export interface BoxStatus {
  enabled: boolean;
  available: boolean;
  /** Why the box cannot start (unavailable), or undefined. */
  reason?: string;
  settings: SandboxSettings;
}

interface BoxSessionLike {
  spawn(command: string, shell: string, env: Record<string, string>): Promise<BoxedSpawn>;
  close(): Promise<void>;
}

/** What a result says when the box is on but the command ran outside it. */
const OUTSIDE_NOTES: Readonly<Record<string, string>> = {
  'user-shell': '[sandbox] Ran outside the sandbox: your own `!` lines always do.',
  unavailable: '[sandbox] Ran outside the sandbox: it is unavailable here (see /sandbox); the command was asked.',
  excluded: '[sandbox] Ran outside the sandbox: the command is in sandbox.excludedCommands.',
  asked: '[sandbox] Ran outside the sandbox, as asked (dangerouslyDisableSandbox).',
};

/** The transcript's short form of where a command ran while the box is on. */
const OUTSIDE_LABELS: Readonly<Record<string, string>> = {
  'user-shell': 'outside the sandbox (your own ! line)',
  unavailable: 'outside the sandbox (unavailable)',
  excluded: 'outside the sandbox (excluded command)',
  asked: 'outside the sandbox (as asked)',
};

function commandMatches(command: string, pattern: string): boolean {
  const trimmed = command.trim();
  const bare = pattern
    .replace(/:\*$/, '')
    .replace(/\s*\*$/, '')
    .trim();
  if (bare === '') return false;
  return trimmed === bare || trimmed.startsWith(`${bare} `);
}

export type { BoxPlaces } from './box-layout.js';

export class CommandBox implements BashBox {
  private enabledNow: boolean;
  private session: Promise<BoxSessionLike> | undefined;

  constructor(
    readonly settings: SandboxSettings,
    private readonly availability: BoxAvailability,
    private readonly places: BoxPlaces,
  ) {
    this.enabledNow = settings.enabled;
  }

  status(): BoxStatus {
    return {
      enabled: this.enabledNow,
      available: this.availability.ok,
      ...(this.availability.ok ? {} : { reason: this.availability.reason }),
      settings: this.settings,
    };
  }

  /** `/sandbox on|off`: for this session. */
  setEnabled(on: boolean): void {
    this.enabledNow = on;
  }

  placement(
    input: { command: string; dangerouslyDisableSandbox?: boolean | undefined },
    source: CallSource,
  ): Placement {
    if (source === 'user-shell') return { where: 'outside', why: 'user-shell' };
    if (!this.enabledNow) return { where: 'outside', why: 'off' };
    if (!this.availability.ok) return { where: 'outside', why: 'unavailable' };
    if (input.dangerouslyDisableSandbox === true) {
      return { where: 'outside', why: 'asked', allowed: this.settings.allowUnsandboxedCommands };
    }
    if (this.settings.excludedCommands.some((pattern) => commandMatches(input.command, pattern))) {
      return { where: 'outside', why: 'excluded' };
    }
    return { where: 'box', autoAllow: this.settings.autoAllowBashIfSandboxed };
  }

  /** Bash's view (bash-box.ts). */
  place(input: { command: string; dangerouslyDisableSandbox?: boolean | undefined }, source: CallSource): BashPlace {
    const placement = this.placement(input, source);
    const failed = placement.where === 'outside' && placement.why === 'unavailable' && this.settings.failIfUnavailable;
    const verdict = failed
      ? {
          refuse:
            `the sandbox is unavailable here (${this.availability.ok ? '' : this.availability.reason}) and ` +
            'sandbox.failIfUnavailable is set, so Bash does not run',
        }
      : CommandBox.verdict(placement);
    const note = placement.where === 'outside' ? OUTSIDE_NOTES[placement.why] : undefined;
    const label = placement.where === 'box' ? 'in the sandbox' : OUTSIDE_LABELS[placement.why];
    return {
      ...(label === undefined ? {} : { label }),
      boxed: placement.where === 'box',
      ...(verdict === undefined ? {} : { verdict }),
      ...(note === undefined ? {} : { note }),
      ...(placement.where === 'outside' && placement.why === 'asked'
        ? { outside: 'Runs OUTSIDE the sandbox (dangerouslyDisableSandbox): no limit on files or network.' }
        : {}),
    };
  }

  /** The decision point's view of a placement (undefined: the normal decision). */
  static verdict(placement: Placement | undefined): SandboxVerdict | undefined {
    if (placement === undefined) return undefined;
    if (placement.where === 'box') return placement.autoAllow ? 'auto' : undefined;
    if (placement.why !== 'asked') return undefined;
    return placement.allowed
      ? 'ask'
      : {
          refuse:
            'running outside the sandbox (dangerouslyDisableSandbox) is not allowed here ' +
            '(sandbox.allowUnsandboxedCommands is false); run the command inside the sandbox',
        };
  }

  /** The command line that runs `command` in the box (sets the box up on first use). */
  async spawn(command: string, shell: string, env: Record<string, string>): Promise<BoxedSpawn> {
    this.session ??= this.open();
    return await (await this.session).spawn(command, shell, env);
  }

  private async open(): Promise<BoxSessionLike> {
    if (!this.availability.ok) throw new Error('the sandbox is not available');
    const { openBoxSession } = await import('./box-session.js');
    return await openBoxSession(this.settings, this.availability, this.places);
  }

  /** Stops the proxy and removes the private temp directory. Never rejects. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    try {
      await (await session).close();
    } catch {
      // Nothing to report at exit.
    }
  }
}
