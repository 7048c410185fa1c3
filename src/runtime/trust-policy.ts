/**
 * The permission rules a runtime starts with, and the one trust question: asked once per project, only when the
 * project brings something that widens what runs without asking (allow rules, custom commands with shell lines,
 * hook commands, subagents and skills).
 */
import type { Config } from '../config/config.js';
import { projectExtensionsPending } from '../agents/install.js';
import { loadCustomCommands } from '../commands/custom-commands.js';
import { trustLines } from '../hooks/hook-listing.js';
import { loadHooks } from '../hooks/hook-sources.js';
import { loadPermissionPolicy, type LoadedPolicy } from '../permissions/settings-files.js';
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
async function projectShellCommands(projectRoot: string, mcaHome: string): Promise<string[]> {
  return [...(await loadCustomCommands({ projectRoot, mcaHome })).values()]
    .filter((command) => command.scope === 'project' && /!`[^`\n]+`/.test(command.body))
    .map((command) => `/${command.name} runs shell commands (${command.path})`);
}

/** The rules in force; asks about trust once when the project brings allow rules and nobody decided yet. */
export async function permissionPolicy(
  flags: RuleFlags,
  config: Pick<Config, 'mcaHome'>,
  projectRoot: string,
  askTrust: TrustQuestion | undefined,
  /** More that the project would switch on (its MCP servers' command lines, its settings' `env`), for the question. */
  moreWidening: readonly string[] = [],
): Promise<LoadedPolicy & { trusted: boolean; asked: boolean }> {
  const choice = trustChoice(config.mcaHome, projectRoot);
  const loaded = loadPolicy(flags, config, projectRoot, choice === 'trusted');
  if (choice !== 'unknown' || !askTrust) return { ...loaded, trusted: choice === 'trusted', asked: false };
  const widening = [
    ...loaded.ignoredProjectAllows.map((rule) => `${rule.text} (${rule.source})`),
    ...(await projectShellCommands(projectRoot, config.mcaHome)),
    ...trustLines(loadHooks({ projectRoot, mcaHome: config.mcaHome, trusted: false }).pending),
    ...moreWidening,
    ...projectExtensionsPending(projectRoot),
  ];
  if (widening.length === 0) return { ...loaded, trusted: false, asked: false };
  const trusted = await askTrust(projectRoot, widening);
  try {
    recordTrust(config.mcaHome, projectRoot, trusted);
  } catch (error) {
    if (error instanceof TrustStoreError)
      loaded.notices.push(`${error.message}; the choice holds for this session only`);
    else throw error;
  }
  return trusted
    ? { ...loadPolicy(flags, config, projectRoot, true), trusted, asked: true }
    : { ...loaded, trusted, asked: true };
}
