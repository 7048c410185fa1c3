/**
 * The words of `mca plugin …` and `/plugin …`, in one place so both say the same: `list`, `install <plugin>[@<m>]`,
 * `uninstall|remove <plugin>`, `enable <plugin>`, `disable <plugin>`, `marketplace add <folder | git URL>`,
 * `marketplace list`, `marketplace remove|rm <name>`. Returns the lines to show; PluginError for a step that cannot
 * be done.
 */
import { readClaudeSettings } from '../claude-code/settings.js';
import { enabledPlugins } from './enabled-plugins.js';
import {
  addMarketplace,
  describeSource,
  knownMarketplaces,
  readMarketplace,
  removeMarketplace,
} from './marketplaces.js';
import { PluginError } from './plugin-error.js';
import { installPlugin, pluginList, setPluginEnabled, uninstallPlugin } from './plugin-install.js';
import type { PluginPlaces } from './plugin-store.js';

export interface PluginVerbContext extends PluginPlaces {
  projectRoot: string;
  /** Where a relative marketplace folder is found. */
  cwd: string;
}

export const PLUGIN_USAGE = [
  'usage: mca plugin list',
  '       mca plugin install <plugin>[@<marketplace>]',
  '       mca plugin uninstall|enable|disable <plugin>[@<marketplace>]',
  '       mca plugin marketplace add <folder | git URL | owner/repo>',
  '       mca plugin marketplace list',
  '       mca plugin marketplace remove <name>',
].join('\n');

function one(args: readonly string[], what: string): string {
  if (args.length !== 1 || (args[0] ?? '').startsWith('-'))
    throw new PluginError('PLUGIN_UNKNOWN', `${what}\n${PLUGIN_USAGE}`);
  return args[0] as string;
}

function marketplaceLines(context: PluginVerbContext): string[] {
  const known = [...knownMarketplaces(context).values()];
  if (known.length === 0) return ['No marketplaces (mca plugin marketplace add <folder | git URL>).'];
  return [
    'Configured marketplaces:',
    ...known.flatMap((market) => {
      let count = '';
      try {
        count = `, ${readMarketplace(market.installLocation).plugins.length} plugin(s)`;
      } catch {
        count = ', manifest missing';
      }
      return [`  ${market.name}  ${describeSource(market.source)}${count}`];
    }),
  ];
}

export async function runPluginVerb(args: readonly string[], context: PluginVerbContext): Promise<string[]> {
  const [verb, ...rest] = args;
  switch (verb) {
    case undefined:
    case 'list': {
      const settings = readClaudeSettings({ ...context, trusted: false });
      const enabled = enabledPlugins(settings.enabledPlugins, []);
      return pluginList(context, new Set(enabled.map((entry) => entry.id)));
    }
    case 'install':
    case 'i':
      return [await installPlugin(context, one(rest, 'install needs one plugin'))];
    case 'uninstall':
    case 'remove':
      return [uninstallPlugin(context, one(rest, 'uninstall needs one plugin'))];
    case 'enable':
      return [setPluginEnabled(context, one(rest, 'enable needs one plugin'), true)];
    case 'disable':
      return [setPluginEnabled(context, one(rest, 'disable needs one plugin'), false)];
    case 'marketplace': {
      const [what, ...names] = rest;
      if (what === 'add') {
        const market = await addMarketplace(context, one(names, 'marketplace add needs one source'), context.cwd);
        return [`Added marketplace ${market.name} (${describeSource(market.source)}).`];
      }
      if (what === 'list' || what === undefined) return marketplaceLines(context);
      if (what === 'remove' || what === 'rm') {
        const name = one(names, 'marketplace remove needs one name');
        removeMarketplace(context, name);
        return [`Removed marketplace ${name}.`];
      }
      throw new PluginError('PLUGIN_UNKNOWN', `unknown marketplace command "${what}"\n${PLUGIN_USAGE}`);
    }
    default:
      throw new PluginError('PLUGIN_UNKNOWN', `unknown plugin command "${verb}"\n${PLUGIN_USAGE}`);
  }
}
