/**
 * The `hooks` key of one settings file, in Claude Code's format:
 *   {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}}
 * Every entry that cannot be used (an event mca does not fire, a hook type other than `command`, an empty command,
 * a matcher that is not a valid regular expression, a bad timeout) is skipped with one warning line naming the
 * file and the key; the rest of the file still applies. Never throws.
 */
import { HOOK_EVENTS, isHookEventName, type HookEventName } from './hook-events.js';
import { compileMatcher } from './matcher.js';

/** Claude Code's default: ten minutes. */
export const DEFAULT_HOOK_TIMEOUT_SEC = 600;
/** A day: anything longer is a typo (milliseconds written as seconds is the usual one). */
const MAX_HOOK_TIMEOUT_SEC = 86_400;

export type HookScope = 'user' | 'project';

/** One configured hook command. */
export interface HookCommand {
  readonly event: HookEventName;
  /** '' when the entry matches everything (missing, empty or `*`). */
  readonly matcher: string;
  readonly command: string;
  readonly timeoutSec: number;
  /** The settings file it came from. */
  readonly source: string;
  readonly scope: HookScope;
  /** Where in that file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly key: string;
  /**
   * Set for a hook the Agent SDK host registered in `initialize` (hook-callbacks.ts): it runs as a `hook_callback`
   * request to the host instead of a process; `command` is then only its label.
   */
  readonly callbackId?: string;
  /** A plugin's hook: its folder, given to the command as CLAUDE_PLUGIN_ROOT (src/plugins). */
  readonly pluginRoot?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseHook(
  raw: unknown,
  at: { event: HookEventName; matcher: string; key: string; source: string; scope: HookScope },
  warn: (key: string, why: string) => void,
): HookCommand | undefined {
  if (!isObject(raw)) return void warn(at.key, 'a hook must be an object with "type" and "command"');
  const type = raw.type ?? 'command';
  if (type !== 'command') {
    return void warn(at.key, `hook type ${JSON.stringify(type)} is not supported by mca (only "command")`);
  }
  if (typeof raw.command !== 'string' || raw.command.trim() === '') {
    return void warn(at.key, '"command" must be a non-empty string');
  }
  let timeoutSec = DEFAULT_HOOK_TIMEOUT_SEC;
  if (raw.timeout !== undefined) {
    if (typeof raw.timeout !== 'number' || !Number.isFinite(raw.timeout) || raw.timeout <= 0) {
      warn(`${at.key}.timeout`, `must be a positive number of seconds; using ${DEFAULT_HOOK_TIMEOUT_SEC}`);
    } else timeoutSec = Math.min(raw.timeout, MAX_HOOK_TIMEOUT_SEC);
  }
  return {
    event: at.event,
    matcher: at.matcher,
    command: raw.command,
    timeoutSec,
    source: at.source,
    scope: at.scope,
    key: at.key,
  };
}

/** The matcher of a group as stored ('' = all), or undefined (with a warning) when it cannot be used. */
function groupMatcher(raw: unknown, key: string, warn: (key: string, why: string) => void): string | undefined {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') return void warn(key, '"matcher" must be a string');
  const matcher = raw.trim() === '*' ? '' : raw;
  const compiled = compileMatcher(matcher);
  if (!compiled.ok) return void warn(key, `"matcher" is not a valid regular expression (${compiled.message})`);
  return matcher;
}

/**
 * The hook commands of one file's parsed JSON (`settings` is the whole file's object). `warnings` receives one
 * line per skipped entry: `ignored <key> in <file>: <why>`.
 */
export function parseHooksSetting(
  settings: Record<string, unknown>,
  source: string,
  scope: HookScope,
  warnings: string[],
): HookCommand[] {
  const warn = (key: string, why: string): void => void warnings.push(`ignored ${key} in ${source}: ${why}`);
  const hooks = settings.hooks;
  if (hooks === undefined) return [];
  if (!isObject(hooks)) {
    warn('hooks', 'it must be an object keyed by event name');
    return [];
  }
  const commands: HookCommand[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const eventKey = `hooks.${event}`;
    if (!isHookEventName(event)) {
      warn(eventKey, `mca does not fire a "${event}" event (it fires ${HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      warn(eventKey, 'it must be a list of {"matcher", "hooks"} entries');
      continue;
    }
    groups.forEach((group: unknown, index) => {
      const groupKey = `${eventKey}[${index}]`;
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        warn(groupKey, 'an entry must be an object with a "hooks" list');
        return;
      }
      const matcher = groupMatcher(group.matcher, `${groupKey}.matcher`, warn);
      if (matcher === undefined) return;
      group.hooks.forEach((raw: unknown, hookIndex) => {
        const key = `${groupKey}.hooks[${hookIndex}]`;
        const command = parseHook(raw, { event, matcher, key, source, scope }, warn);
        if (command) commands.push(command);
      });
    });
  }
  return commands;
}
