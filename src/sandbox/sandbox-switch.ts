/**
 * The runtime's handle on the sandbox: the resolved settings, the box once it is on (command-box.ts, loaded only
 * then), `/sandbox` to see and switch it, and the Bash port (bash-box.ts) the registry holds from the start. With
 * the box off nothing beyond this file is loaded (and sandbox-defaults.ts; the resolver, sandbox-settings.ts and
 * sandbox-layers.ts, only when some settings file or `--sandbox` speaks of the box).
 */
import type { BashBox, BashPlace, BoxedSpawn } from '../tools/processes/bash-box.js';
import type { CallSource } from '../tools/registry/tool-context.js';
import type { BoxPlaces, BoxStatus, CommandBox } from './command-box.js';
import type { ResolvedSandbox } from './sandbox-defaults.js';

export class SandboxSwitch implements BashBox {
  private box: CommandBox | undefined;

  constructor(
    readonly resolved: ResolvedSandbox,
    private readonly places: BoxPlaces,
  ) {}

  /** Sets the box up when the settings turn it on; answers the start-up line when it cannot start, else undefined. */
  async start(): Promise<string | undefined> {
    if (!this.resolved.settings.enabled) return undefined;
    const status = await this.setEnabled(true);
    return status.available
      ? undefined
      : `sandbox unavailable: ${status.reason ?? 'unknown'}; Bash asks before every command instead`;
  }

  /** `/sandbox on|off` (for this session); loads and probes the box the first time it is turned on. */
  async setEnabled(on: boolean): Promise<BoxStatus> {
    if (!this.box && on) {
      const [{ CommandBox: Box }, { probeBox }] = await Promise.all([
        import('./command-box.js'),
        import('./availability.js'),
      ]);
      this.box = new Box(this.resolved.settings, await probeBox(), this.places);
    }
    this.box?.setEnabled(on);
    return this.status();
  }

  status(): BoxStatus {
    return this.box?.status() ?? { enabled: false, available: false, settings: this.resolved.settings };
  }

  place(input: { command: string; dangerouslyDisableSandbox?: boolean | undefined }, source: CallSource): BashPlace {
    return this.box?.place(input, source) ?? { boxed: false };
  }

  async spawn(command: string, shell: string, env: Record<string, string>): Promise<BoxedSpawn> {
    if (!this.box) throw new Error('the sandbox is off');
    return await this.box.spawn(command, shell, env);
  }

  /** ProjectCommandBox (bash-box.ts): a project's hook command or stdio MCP server, in the box when it is on. */
  readonly boxProjectCommand = async (
    command: string,
    env: Record<string, string>,
  ): Promise<BoxedSpawn | undefined> => {
    const status = this.status();
    if (!this.box || !status.enabled || !status.available || !status.settings.boxProjectCommands) return undefined;
    return await this.box.spawn(command, '/bin/sh', env);
  };

  async close(): Promise<void> {
    await this.box?.close();
  }
}

/** `/sandbox` and `/doctor`: one line each. */
export function describeSandbox(status: BoxStatus): string[] {
  const { settings } = status;
  const lines: string[] = [];
  if (!status.enabled) lines.push('Sandbox: off (Bash runs outside the box; `/sandbox on` or `--sandbox` turns it on)');
  else if (!status.available) {
    lines.push(`Sandbox: on but unavailable: ${status.reason ?? 'unknown'}; Bash asks before every command instead`);
  } else {
    lines.push(
      `Sandbox: on (bubblewrap) · ${settings.autoAllowBashIfSandboxed ? 'commands in the box run without a question' : 'commands in the box are still asked'}`,
    );
  }
  const list = (items: readonly string[]): string => (items.length === 0 ? 'none' : items.join(', '));
  lines.push(
    `  writes: the project, added directories, $TMPDIR (private)${settings.allowWrite.length > 0 ? `, ${settings.allowWrite.join(', ')}` : ''}`,
  );
  lines.push(
    `  network: only through mca's proxy to ${list(settings.allowedDomains)}${settings.deniedDomains.length > 0 ? ` (denied: ${settings.deniedDomains.join(', ')})` : ''}`,
  );
  lines.push(
    `  hidden: ~/.ssh, ~/.aws, ~/.config/gcloud, ~/.netrc, ~/.docker/config.json, credential files${settings.denyRead.length > 0 ? `, ${settings.denyRead.join(', ')}` : ''}`,
  );
  lines.push(
    `  excluded commands: ${list(settings.excludedCommands)} · outside the box on request: ${settings.allowUnsandboxedCommands ? 'asked' : 'refused'}`,
  );
  const socketsOpen = settings.allowAllUnixSockets || settings.allowUnixSockets.length > 0;
  lines.push(
    socketsOpen
      ? '  unix sockets: open (sandbox.network.allowUnixSockets or allowAllUnixSockets is set)'
      : '  unix sockets: closed (seccomp)',
  );
  lines.push('  your own `!` lines run outside the box');
  if (status.enabled && settings.enabledBy !== undefined) lines.push(`  turned on by ${settings.enabledBy}`);
  return lines;
}
