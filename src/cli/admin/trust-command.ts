/**
 * `mca trust [dir]` (and `mca trust --revoke [dir]`): records that the user trusts a project, so its settings'
 * allow rules, hooks, env and the commands it supplies take effect. It lists what that turns on (every MCP server
 * with its env and headers, every widening), then asks about each `.mcp.json` server nobody approved yet (on a
 * terminal; otherwise it names them and how to approve). For scripts; the REPL asks itself.
 */
import { homedir } from 'node:os';
import { readClaudeSettings } from '../../claude-code/settings.js';
import { sessionEnvironment } from '../../config/child-environment.js';
import { resolveMcaHome } from '../../config/config.js';
import type { TrustItem } from '../../permissions/trust-items.js';
import { gateOf, readApprovals } from '../../mcp/approval.js';
import { recordMcpChoice } from '../../mcp/approval-store.js';
import { loadMcpConfig } from '../../mcp/config-sources.js';
import { serverTrustItem } from '../../mcp/server-exposure.js';
import { loadPermissionPolicy } from '../../permissions/settings-files.js';
import { recordTrust } from '../../permissions/trust-store.js';
import { trustItems } from '../../runtime/trust-question.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { resolveProjectRoot } from '../bootstrap.js';
import { CliError, EXIT_OK, printError } from '../exit-codes.js';
import { askMcpApprovalOnce } from '../mcp-approval-question.js';
import { trustQuestionLines } from '../modes/trust-question.js';

const USAGE = 'usage: mca trust [--revoke] [dir]';
const HELP =
  'Trusts the project (this directory, or dir): its settings, hooks, MCP servers and plugins take effect, and what\n' +
  'that turns on is listed. --revoke takes the trust back.';

/** What the plugins only the project's settings enable would switch on (src/plugins; read only when there are). */
async function projectPluginItems(projectRoot: string, mcaHome: string): Promise<TrustItem[]> {
  const home = homedir();
  const settings = readClaudeSettings({ projectRoot, mcaHome, home, trusted: false });
  if (!settings.enabledPlugins.some((entry) => entry.project)) return [];
  const { loadPlugins } = await import('../../plugins/load-plugins.js');
  const env = sessionEnvironment();
  return loadPlugins({ pluginDirs: [], enabled: settings.enabledPlugins, projectRoot, mcaHome, home, env }).widening;
}

export async function runTrustCommand(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n\n${HELP}\n`);
    return EXIT_OK;
  }
  const revoke = args.includes('--revoke');
  const rest = args.filter((arg) => arg !== '--revoke');
  if (rest.some((arg) => arg.startsWith('-')) || rest.length > 1) throw new CliError(USAGE);
  const projectRoot = resolveProjectRoot(rest[0]);
  let mcaHome: string;
  try {
    mcaHome = resolveMcaHome();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  // A directory name is not mca's text: its control characters are shown, never sent to the terminal raw.
  const shown = neutralizeControlSequences(projectRoot);
  if (revoke) {
    recordOrFail(mcaHome, projectRoot, false);
    process.stdout.write(`${shown} is no longer trusted: its allow rules and commands are ignored\n`);
    return EXIT_OK;
  }
  const servers = loadMcpConfig({ projectRoot, mcaHome }).servers.filter((server) => server.scope === 'project');
  const ignored = loadPermissionPolicy({ projectRoot, mcaHome, trusted: false }).ignoredProjectAllows;
  const items = await trustItems(projectRoot, mcaHome, ignored, [
    ...servers.map((server) => serverTrustItem(server, projectRoot)),
    ...(await projectPluginItems(projectRoot, mcaHome)),
  ]);
  recordOrFail(mcaHome, projectRoot, true);
  process.stdout.write(
    [
      `trusted ${shown}: its settings' allow rules, hooks, env and its commands now take effect`,
      ...(items.length > 0
        ? ['This turns on:', ...trustQuestionLines(items, true, process.stdout.columns || 100)]
        : []),
      '',
    ].join('\n'),
  );
  await approveServers(projectRoot, mcaHome, servers);
  return EXIT_OK;
}

function recordOrFail(mcaHome: string, projectRoot: string, trusted: boolean): void {
  try {
    recordTrust(mcaHome, projectRoot, trusted);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/** Each `.mcp.json` server neither approved nor disabled: asked on a terminal, else named with how to approve. */
async function approveServers(
  projectRoot: string,
  mcaHome: string,
  servers: ReturnType<typeof loadMcpConfig>['servers'],
): Promise<void> {
  const approvals = readApprovals({ projectRoot, mcaHome, trusted: true });
  const pending = servers.filter((server) => gateOf(server, true, approvals) === 'pending');
  if (pending.length === 0) return;
  if (!process.stdin.isTTY) {
    process.stdout.write(
      `${pending.length} .mcp.json server(s) not approved yet: ${pending.map((server) => neutralizeControlSequences(server.name)).join(', ')}. ` +
        'Run `mca trust` in a terminal to approve them, or start mca here and answer its question.\n',
    );
    return;
  }
  for (const server of pending) {
    if (approvals.enableAll) break;
    const answer = await askMcpApprovalOnce(serverTrustItem(server, projectRoot));
    if (answer === 'all') approvals.enableAll = true;
    const failure = recordMcpChoice(mcaHome, projectRoot, {
      ...(answer === 'skip' ? { disable: [server.name] } : { approve: [server.name] }),
      ...(answer === 'all' ? { all: true } : {}),
    });
    if (failure) printError(failure);
    process.stdout.write(
      `MCP server "${neutralizeControlSequences(server.name)}": ${answer === 'skip' ? 'skipped (enable it in /mcp)' : 'approved'}\n`,
    );
  }
}
