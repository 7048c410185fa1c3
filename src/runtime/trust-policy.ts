/**
 * The permission rules a runtime starts with, and the one trust question: asked once per project, only when the
 * project brings something that widens what runs without asking (allow rules, custom commands with shell lines,
 * hook commands, subagents and skills).
 */
import { sessionEnvironment } from '../config/child-environment.js';
import type { Config } from '../config/config.js';
import { loadPermissionPolicy, type LoadedPolicy } from '../permissions/settings-files.js';
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
  // What the question lists is gathered only when it is asked (trust-question.ts, loaded then).
  const { trustItems } = await import('./trust-question.js');
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
