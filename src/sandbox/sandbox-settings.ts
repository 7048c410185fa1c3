/**
 * Claude Code's `sandbox` settings, with its meaning, resolved over the settings files and the `--sandbox` flag
 * under mca's trust rule (DESIGN.md "Trust boundaries", "Sandbox"): the user's files, the flag and a trusted
 * project may set anything; an untrusted project may only narrow the box. Narrowing means: turn the box on, turn
 * `autoAllowBashIfSandboxed` or `allowUnsandboxedCommands` off, add denied domains, `denyWrite` or `denyRead`
 * paths, or keep its MCP servers and hooks in the box. Everything else it says (allowed domains, `allowWrite`,
 * excluded commands, unix sockets, local binding, turning the box off) is ignored and listed for the trust question.
 *
 * Keys (Claude Code's): `enabled`, `autoAllowBashIfSandboxed` (default true), `excludedCommands`,
 * `allowUnsandboxedCommands` (default true), `network.{allowedDomains, deniedDomains, allowUnixSockets,
 * allowAllUnixSockets, allowLocalBinding}`, `filesystem.{allowWrite, denyWrite, denyRead}`; mca's own:
 * `boxProjectCommands` (default true): stdio MCP servers and hook commands that come from project files run in the
 * box too; `failIfUnavailable` (default false): where the box cannot start, Bash is refused instead of asked.
 */

// The settings' shape and their defaults live in sandbox-defaults.ts, which a runtime with no `sandbox` anywhere
// loads without this resolver.
import { defaultSandboxSettings, type ResolvedSandbox } from './sandbox-defaults.js';

export { defaultSandboxSettings };
export type { ResolvedSandbox, SandboxSettings } from './sandbox-defaults.js';

/** One settings file's `sandbox` object, as read, and whether it may widen the box. */
export interface SandboxLayer {
  file: string;
  value: unknown;
  /** The user's file, the flag, or a trusted project's: may widen. */
  mayWiden: boolean;
}

type Record_ = Record<string, unknown>;
const isObject = (value: unknown): value is Record_ =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The keys each part of `sandbox` may hold; others are named once. */
const TOP_KEYS = new Set([
  'enabled',
  'autoAllowBashIfSandboxed',
  'excludedCommands',
  'allowUnsandboxedCommands',
  'network',
  'filesystem',
  'boxProjectCommands',
  'failIfUnavailable',
]);
const NETWORK_KEYS = new Set([
  'allowedDomains',
  'deniedDomains',
  'allowUnixSockets',
  'allowAllUnixSockets',
  'allowLocalBinding',
]);
const FILESYSTEM_KEYS = new Set(['allowWrite', 'denyWrite', 'denyRead']);

/** Booleans whose `true` widens the box (and `false` narrows), except `enabled`, which is the other way round. */
const WIDENING_WHEN_TRUE = new Set(['autoAllowBashIfSandboxed', 'allowUnsandboxedCommands']);

type ListKey = 'excludedCommands' | 'allowedDomains' | 'deniedDomains' | 'allowUnixSockets' | 'allowWrite';
type NarrowListKey = 'deniedDomains' | 'denyWrite' | 'denyRead';

/** Applies the layers in order (later wins for booleans; lists add up). */
export function resolveSandbox(layers: readonly SandboxLayer[]): ResolvedSandbox {
  const settings = defaultSandboxSettings();
  const notices: string[] = [];
  const ignoredWidening: string[] = [];
  /** autoAllowBashIfSandboxed defaults to true only when a source that may widen turned the box on. */
  let autoAllowSetByWidener = false;
  let enabledByWidener = false;
  for (const { file, value, mayWiden } of layers) {
    if (value === undefined) continue;
    if (!isObject(value)) {
      notices.push(`ignored "sandbox" in ${file}: it must be an object`);
      continue;
    }
    const ignore = (what: string): void => {
      ignoredWidening.push(`sandbox: ${what} (${file})`);
    };
    for (const key of Object.keys(value)) {
      if (!TOP_KEYS.has(key)) notices.push(`settings key "sandbox.${key}" in ${file} is not supported by mca; ignored`);
    }
    const bool = (key: string, raw: unknown): boolean | undefined => {
      if (raw === undefined) return undefined;
      if (typeof raw === 'boolean') return raw;
      notices.push(`ignored sandbox.${key} in ${file}: it must be true or false`);
      return undefined;
    };
    const enabled = bool('enabled', value.enabled);
    if (enabled !== undefined) {
      if (enabled || mayWiden) {
        settings.enabled = enabled;
        settings.enabledBy = file;
        enabledByWidener = enabled && (mayWiden || enabledByWidener);
      } else ignore('turns the sandbox off');
    }
    for (const key of WIDENING_WHEN_TRUE) {
      const flag = bool(key, value[key]);
      if (flag === undefined) continue;
      if (flag && !mayWiden) ignore(`${key}: true`);
      else {
        if (key === 'autoAllowBashIfSandboxed') {
          settings.autoAllowBashIfSandboxed = flag;
          autoAllowSetByWidener = mayWiden;
        } else settings.allowUnsandboxedCommands = flag;
      }
    }
    // Both narrow when true: an untrusted project may turn them on, not off.
    for (const key of ['boxProjectCommands', 'failIfUnavailable'] as const) {
      const flag = bool(key, value[key]);
      if (flag === undefined) continue;
      if (!flag && !mayWiden) ignore(`${key}: false`);
      else settings[key] = flag;
    }
    const network = value.network;
    const filesystem = value.filesystem;
    const part = (name: string, raw: unknown, keys: Set<string>): Record_ => {
      if (raw === undefined) return {};
      if (!isObject(raw)) {
        notices.push(`ignored sandbox.${name} in ${file}: it must be an object`);
        return {};
      }
      for (const key of Object.keys(raw)) {
        if (!keys.has(key))
          notices.push(`settings key "sandbox.${name}.${key}" in ${file} is not supported by mca; ignored`);
      }
      return raw;
    };
    const net = part('network', network, NETWORK_KEYS);
    const fs = part('filesystem', filesystem, FILESYSTEM_KEYS);
    const list = (path: string, raw: unknown): string[] => {
      if (raw === undefined) return [];
      if (Array.isArray(raw) && raw.every((entry): entry is string => typeof entry === 'string')) {
        return raw.map((entry) => entry.trim()).filter((entry) => entry !== '');
      }
      notices.push(`ignored sandbox.${path} in ${file}: it must be a list of strings`);
      return [];
    };
    const widen = (key: ListKey, path: string, entries: string[]): void => {
      if (entries.length === 0) return;
      if (mayWiden) settings[key].push(...entries);
      else ignore(`${path} ${entries.join(', ')}`);
    };
    const narrow = (key: NarrowListKey, entries: string[]): void => {
      settings[key].push(...entries);
    };
    widen('excludedCommands', 'excludedCommands', list('excludedCommands', value.excludedCommands));
    widen('allowedDomains', 'network.allowedDomains', list('network.allowedDomains', net.allowedDomains));
    narrow('deniedDomains', list('network.deniedDomains', net.deniedDomains));
    widen('allowUnixSockets', 'network.allowUnixSockets', list('network.allowUnixSockets', net.allowUnixSockets));
    for (const key of ['allowAllUnixSockets', 'allowLocalBinding'] as const) {
      const flag = bool(`network.${key}`, net[key]);
      if (flag === undefined) continue;
      if (flag && !mayWiden) ignore(`network.${key}: true`);
      else settings[key] = flag;
    }
    widen('allowWrite', 'filesystem.allowWrite', list('filesystem.allowWrite', fs.allowWrite));
    narrow('denyWrite', list('filesystem.denyWrite', fs.denyWrite));
    narrow('denyRead', list('filesystem.denyRead', fs.denyRead));
  }
  // A box an untrusted project turned on never runs commands unasked unless the user's own settings said so.
  if (settings.enabled && !enabledByWidener && !autoAllowSetByWidener) settings.autoAllowBashIfSandboxed = false;
  return { settings, notices, ignoredWidening };
}

/** `--sandbox` / `--no-sandbox` as a layer after every file (the user's own word: it may widen). */
export function flagLayer(on: boolean): SandboxLayer {
  return { file: on ? '--sandbox' : '--no-sandbox', value: { enabled: on }, mayWiden: true };
}
