/**
 * The sandbox settings' shape and what they are when nothing configures them (Claude Code's defaults: the box off).
 * sandbox-settings.ts resolves the settings files and `--sandbox` over these; a runtime whose files say nothing of
 * `sandbox` and that has no flag uses them without loading that resolver.
 */

export interface SandboxSettings {
  enabled: boolean;
  /** Where `enabled` was last set (a file or `--sandbox`); undefined: nobody set it. */
  enabledBy?: string;
  autoAllowBashIfSandboxed: boolean;
  excludedCommands: string[];
  allowUnsandboxedCommands: boolean;
  allowedDomains: string[];
  deniedDomains: string[];
  allowUnixSockets: string[];
  allowAllUnixSockets: boolean;
  allowLocalBinding: boolean;
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
  boxProjectCommands: boolean;
  /** Claude Code's `failIfUnavailable`: where the box cannot start, Bash is refused instead of asked. */
  failIfUnavailable: boolean;
}

export interface ResolvedSandbox {
  settings: SandboxSettings;
  /** One line per value that was not usable. */
  notices: string[];
  /** What an untrusted project's files would widen (for the trust question), one line each. */
  ignoredWidening: string[];
}

export function defaultSandboxSettings(): SandboxSettings {
  return {
    enabled: false,
    autoAllowBashIfSandboxed: true,
    excludedCommands: [],
    allowUnsandboxedCommands: true,
    allowedDomains: [],
    deniedDomains: [],
    allowUnixSockets: [],
    allowAllUnixSockets: false,
    allowLocalBinding: false,
    allowWrite: [],
    denyWrite: [],
    denyRead: [],
    boxProjectCommands: true,
    failIfUnavailable: false,
  };
}

/** What resolving no layer at all gives: the defaults, with nothing to say. */
export function unconfiguredSandbox(): ResolvedSandbox {
  return { settings: defaultSandboxSettings(), notices: [], ignoredWidening: [] };
}
