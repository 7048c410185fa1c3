/**
 * The permission rules a runtime starts with, and the one trust question: asked once per project, only when the
 * project brings something that widens what runs without asking (allow rules, custom commands with shell lines,
 * hook commands, subagents and skills).
 */
import { sessionEnvironment } from '../config/child-environment.js';
import { homedir } from 'node:os';
import type { Config } from '../config/config.js';
import { projectSettingsItems } from '../claude-code/project-widening.js';
import { MemoryFiles } from '../context/memory-files.js';
import { projectExtensionsPending } from '../subagents/install.js';
import { loadCustomCommands } from '../commands/custom-commands.js';
import { trustLines } from '../hooks/hook-listing.js';
import { loadHooks } from '../hooks/hook-sources.js';
import { loadPermissionPolicy, type LoadedPolicy } from '../permissions/settings-files.js';
import type { PermissionRule } from '../permissions/rule.js';
import type { TrustItem } from '../permissions/trust-items.js';
import { recordTrust, trustChoice, TrustStoreError } from '../permissions/trust-store.js';
import type { RuntimeOptions, TrustQuestion } from './runtime-options.js';

type RuleFlags = Pick<RuntimeOptions, 'allowedTools' | 'disallowedTools' | 'settingSources'>;

/** Throws SettingsFlagError for a malformed rule given by the front end. */
function loadPolicy(
  flags: RuleFlags,
  config: Pick<Config, 'mcaHome'>,
  projectRoot: string,
  trusted: boolean,
): LoadedPolicy {
  return loadPermissionPolicy({
    projectRoot,
    mcaHome: config.mcaHome,
    trusted,
    allowedTools: flags.allowedTools ?? [],
    disallowedTools: flags.disallowedTools ?? [],
    ...(flags.settingSources ? { settingSources: flags.settingSources } : {}),
  });
}

/** The project's custom commands that run shell lines: executables the project supplies. */
async function projectShellCommands(projectRoot: string, mcaHome: string): Promise<TrustItem[]> {
  return [...(await loadCustomCommands({ projectRoot, mcaHome })).values()]
    .filter((command) => command.scope === 'project' && /!`[^`\n]+`/.test(command.body))
    .map((command) => ({
      group: 'commands',
      text: `/${command.name} runs shell commands (${command.path})`,
      danger: true,
    }));
}

/**
 * An allow rule is dangerous when it covers more than one call: a whole tool (`Bash`, `Bash(*)`, `mcp__server`) or
 * a wildcard. Exact rules (`Bash(npm test)`) are the benign ones a count may stand for.
 */
function ruleItem(rule: PermissionRule): TrustItem {
  const specifier = /^[^(]*\((.*)\)$/s.exec(rule.text)?.[1]?.trim() ?? '';
  const broad = specifier === '' || specifier.includes('*');
  return { group: 'rules', text: `allows ${rule.text} (${rule.source})`, danger: broad };
}

/** Memory files a trusted project would load that an untrusted one does not: imports reaching out of the project. */
function memoryImportItems(projectRoot: string, mcaHome: string): TrustItem[] {
  const entries = (trusted: boolean): Map<string, string> => {
    const memory = new MemoryFiles({ projectRoot, mcaHome, home: homedir(), trusted });
    memory.read();
    return new Map(memory.entries().map((entry) => [entry.path, entry.importedBy ?? entry.label]));
  };
  const before = entries(false);
  return [...entries(true)]
    .filter(([path]) => !before.has(path))
    .map(([path, importer]) => ({
      group: 'widening',
      text: `loads ${path} into the model's context (imported by ${importer})`,
      danger: true,
    }));
}

/**
 * Everything a "yes" turns on, in one list: each kind of widening adds its items here (the sandbox's go with
 * the settings items). `more`: what only the runtime knows (its MCP servers).
 */
export async function trustItems(
  projectRoot: string,
  mcaHome: string,
  ignoredAllows: readonly PermissionRule[],
  more: readonly TrustItem[],
): Promise<TrustItem[]> {
  return [
    ...more,
    ...trustLines(loadHooks({ projectRoot, mcaHome, trusted: false }).pending).map((text): TrustItem => ({
      group: 'hooks',
      text,
      danger: true,
    })),
    ...projectSettingsItems(projectRoot),
    ...memoryImportItems(projectRoot, mcaHome),
    ...ignoredAllows.map(ruleItem),
    ...(await projectShellCommands(projectRoot, mcaHome)),
    ...projectExtensionsPending(projectRoot).map((text): TrustItem => ({ group: 'extensions', text, danger: false })),
  ];
}

/** The rules in force; asks about trust once when the project brings allow rules and nobody decided yet. */
export async function permissionPolicy(
  flags: RuleFlags,
  config: Pick<Config, 'mcaHome'>,
  projectRoot: string,
  askTrust: TrustQuestion | undefined,
  /** More that the project would switch on (its MCP servers), for the question. */
  moreWidening: readonly TrustItem[] = [],
): Promise<LoadedPolicy & { trusted: boolean; asked: boolean }> {
  // MCA_TRUST_PROJECT=1 (the user's environment; a project's `env` applies only after trust): trusted for this
  // run, recorded nowhere. For scripts on a checkout the user trusts; docs/security.md states the risk.
  const choice = sessionEnvironment().MCA_TRUST_PROJECT === '1' ? 'trusted' : trustChoice(config.mcaHome, projectRoot);
  const loaded = loadPolicy(flags, config, projectRoot, choice === 'trusted');
  if (choice !== 'unknown' || !askTrust) return { ...loaded, trusted: choice === 'trusted', asked: false };
  const widening = await trustItems(projectRoot, config.mcaHome, loaded.ignoredProjectAllows, moreWidening);
  if (widening.length === 0) return { ...loaded, trusted: false, asked: false };
  const trusted = await askTrust(projectRoot, widening);
  // Only a yes is recorded: a no holds for this session, and the question comes back next time (Claude Code's).
  try {
    if (trusted) recordTrust(config.mcaHome, projectRoot, true);
  } catch (error) {
    if (error instanceof TrustStoreError)
      loaded.notices.push(`${error.message}; the choice holds for this session only`);
    else throw error;
  }
  return trusted
    ? { ...loadPolicy(flags, config, projectRoot, true), trusted, asked: true }
    : { ...loaded, trusted, asked: true };
}
