/**
 * Permission rules from settings files (Claude Code's format, `{"permissions": {"allow": [], "ask": [], "deny": []}}`):
 * the user's `$MCA_HOME/settings.json` and `~/.claude/settings.json`, then the project's `.mca/settings.json`,
 * `.claude/settings.json` and `.claude/settings.local.json`, then the flags. Project files are read like every
 * file mca reads on its own (regular file inside the project, size cap). Their deny and ask rules apply at once;
 * their allow rules only once the user trusts the project. A broken file is skipped with one line.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readBoundedFile } from '../fs/bounded-read.js';
import { PermissionPolicy } from './policy.js';
import { parseRule, splitRuleList, type PermissionRule, type RuleBehavior } from './rule.js';
import { McaError } from '../errors/mca-error.js';

export const SETTINGS_MAX_BYTES = 1024 * 1024;
const BEHAVIORS: readonly RuleBehavior[] = ['deny', 'ask', 'allow'];

/** Project settings files, relative to the project root, in load order. */
export const PROJECT_SETTINGS_FILES: readonly string[] = [
  '.mca/settings.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mca/settings.local.json',
];

export interface SettingsSources {
  projectRoot: string;
  mcaHome: string;
  home?: string;
  trusted: boolean;
  /** `--allowedTools` and `--disallowedTools` values as given. */
  allowedTools?: readonly string[];
  /**
   * Claude Code's `--setting-sources`: the settings files whose rules apply (`user`: $MCA_HOME and ~/.claude;
   * `project`: the shared project files; `local`: the `*.local.json` ones). Absent: all of them.
   */
  settingSources?: readonly ('user' | 'project' | 'local')[];
  disallowedTools?: readonly string[];
}

export interface LoadedPolicy {
  policy: PermissionPolicy;
  /** One line each: a skipped file, a bad rule, the untrusted project's ignored allow rules. */
  notices: string[];
  /** Allow rules the project has but may not use until trusted. */
  ignoredProjectAllows: PermissionRule[];
}

function rulesOf(text: string, file: string, notices: string[]): PermissionRule[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    notices.push(`ignored ${file}: not valid JSON (${(error as Error).message})`);
    return [];
  }
  const permissions = (parsed as { permissions?: unknown } | null)?.permissions;
  if (permissions === undefined) return [];
  if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions)) {
    notices.push(`ignored the permissions in ${file}: "permissions" must be an object`);
    return [];
  }
  const rules: PermissionRule[] = [];
  for (const behavior of BEHAVIORS) {
    const list = (permissions as Record<string, unknown>)[behavior];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      notices.push(`ignored permissions.${behavior} in ${file}: it must be a list of rules`);
      continue;
    }
    for (const entry of list) {
      const result = parseRule(entry, behavior, file);
      if (result.ok) rules.push(result.rule);
      else notices.push(result.message);
    }
  }
  return rules;
}

function readSettings(file: string, root: string | undefined, notices: string[]): PermissionRule[] {
  const read = readBoundedFile(file, { maxBytes: SETTINGS_MAX_BYTES, ...(root ? { root } : {}) });
  if (read.ok) return rulesOf(read.text, file, notices);
  if (read.reason !== 'missing') notices.push(`ignored ${read.message}`);
  return [];
}

function flagRules(values: readonly string[] | undefined, behavior: RuleBehavior, flag: string): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const text of splitRuleList(values ?? [])) {
    const result = parseRule(text, behavior, flag);
    if (!result.ok) throw new SettingsFlagError(result.message);
    rules.push(result.rule);
  }
  return rules;
}

export class SettingsFlagError extends McaError {
  readonly code = 'INVALID_RULE_FLAG' as const;
}

/** Loads every rule source. Throws SettingsFlagError for a malformed flag (a user error, exit 2). */
export function loadPermissionPolicy(sources: SettingsSources): LoadedPolicy {
  const notices: string[] = [];
  const home = sources.home ?? homedir();
  let root = sources.projectRoot;
  try {
    root = realpathSync(root);
  } catch {
    // A missing root has no project files; the user files still apply.
  }
  const from = (source: 'user' | 'project' | 'local'): boolean => sources.settingSources?.includes(source) ?? true;
  const userRules = from('user')
    ? [
        ...readSettings(join(sources.mcaHome, 'settings.json'), undefined, notices),
        ...readSettings(join(home, '.claude', 'settings.json'), undefined, notices),
      ]
    : [];
  const projectRules = PROJECT_SETTINGS_FILES.filter((file) =>
    from(file.endsWith('.local.json') ? 'local' : 'project'),
  ).flatMap((file) => readSettings(join(root, file), root, notices));
  const ignoredProjectAllows = sources.trusted ? [] : projectRules.filter((rule) => rule.behavior === 'allow');
  if (ignoredProjectAllows.length > 0) {
    notices.push(
      `ignored ${ignoredProjectAllows.length} allow rule(s) from this project's settings ` +
        `(${ignoredProjectAllows.map((rule) => rule.text).join(', ')}): the project is not trusted; run \`mca trust\` to use them`,
    );
  }
  const rules = [
    ...userRules,
    ...projectRules.filter((rule) => sources.trusted || rule.behavior !== 'allow'),
    ...flagRules(sources.allowedTools, 'allow', '--allowedTools'),
    ...flagRules(sources.disallowedTools, 'deny', '--disallowedTools'),
  ];
  return { policy: new PermissionPolicy(rules, { projectRoot: root, home }), notices, ignoredProjectAllows };
}
