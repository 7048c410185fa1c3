/**
 * The runtime's plugin part (src/plugins), imported only when `--plugin-dir` or a settings file's `enabledPlugins`
 * names a plugin, so a start without plugins costs one `if`. Found before the trust question (a
 * project's plugins are listed in it); what loads after it depends on the answer (load-plugins.ts).
 */
import { homedir } from 'node:os';
import type { ClaudeSettings } from '../claude-code/settings.js';
import { sessionEnvironment } from '../config/child-environment.js';
import type { LoadedPlugins } from '../plugins/load-plugins.js';
import type { RuntimeOptions } from './runtime-options.js';

export type { LoadedPlugins };

export async function findPlugins(
  options: RuntimeOptions,
  settings: Pick<ClaudeSettings, 'enabledPlugins'>,
  places: { projectRoot: string; mcaHome: string },
  notices: string[],
): Promise<LoadedPlugins> {
  const dirs = options.pluginDirs ?? [];
  const { loadPlugins } = await import('../plugins/load-plugins.js');
  const loaded = loadPlugins({
    pluginDirs: dirs,
    enabled: settings.enabledPlugins,
    projectRoot: places.projectRoot,
    mcaHome: places.mcaHome,
    home: options.home ?? homedir(),
    env: sessionEnvironment(),
    ...(options.strictMcpConfig ? { strictMcpConfig: true } : {}),
  });
  notices.push(...loaded.notices);
  return loaded;
}
