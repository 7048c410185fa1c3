/**
 * `/output-style [name]` and `/thinking [on|off]` (issue 40) over the runtime: the output style's section of the
 * system prompt and the config's thinking budget, both read at every request, so a change holds from the next one
 * on, for this process (the settings keys `outputStyle` and `alwaysThinkingEnabled` keep a choice).
 */
import { homedir } from 'node:os';
import { ALWAYS_THINKING_BUDGET } from '../config/config.js';
import { readClaudeSettings } from '../claude-code/settings.js';
import type { Bootstrapped } from './bootstrap.js';

export interface SettingsCommands {
  /** No name: the styles, the current one marked; a name: that style from the next request. Resolves with the notice. */
  outputStyle(args: string): Promise<string>;
  /** No argument: toggles extended thinking; `on`/`off` sets it. Returns the notice. */
  thinking(args: string): string;
}

export function createSettingsCommands(booted: Bootstrapped): SettingsCommands {
  const { config, projectRoot } = booted;
  const home = homedir();
  let current =
    readClaudeSettings({ projectRoot, mcaHome: config.mcaHome, home, trusted: booted.trusted }).outputStyle?.value ??
    'Default';
  const atStart = config.thinking;
  const sources = { projectRoot, home, mcaHome: config.mcaHome, plugins: booted.plugins };
  return {
    outputStyle: async (args) => {
      const { findOutputStyle, listOutputStyles, outputStyleSection } = await import('../runtime/output-styles.js');
      const wanted = args.trim();
      if (wanted === '') {
        const styles = await listOutputStyles(sources);
        const lines = styles.map((style) => {
          const mark = style.name.toLowerCase() === current.toLowerCase() ? '●' : ' ';
          return `${mark} ${style.name}${style.description ? ` — ${style.description}` : ''}`;
        });
        return ['Output styles (/output-style <name> to use one)', ...lines].join('\n');
      }
      const style = await findOutputStyle(wanted, sources);
      if (!style) return `No output style "${wanted}"; /output-style lists them. The style stays ${current}.`;
      booted.sessions.setPromptSection('output-style', outputStyleSection(style));
      current = style.name;
      return `Output style set to ${style.name} from the next request (set "outputStyle" in settings to keep it).`;
    },
    thinking: (args) => {
      const word = args.trim().toLowerCase();
      if (word !== '' && word !== 'on' && word !== 'off') return 'Usage: /thinking [on|off] (no argument toggles).';
      const on = word === '' ? config.thinking === 'off' : word === 'on';
      config.thinking = on ? (atStart === 'off' ? ALWAYS_THINKING_BUDGET : atStart) : 'off';
      const reaches = config.provider === 'anthropic' && config.toolProtocol === 'native';
      const note = on && !reaches ? ` (it only reaches the Anthropic provider with the native tool protocol)` : '';
      return on
        ? `Extended thinking on (budget ${config.thinking} tokens) from the next request${note}.`
        : 'Extended thinking off from the next request.';
    },
  };
}
