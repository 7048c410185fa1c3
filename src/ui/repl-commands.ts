/**
 * The REPL's daily commands beyond the core ones (repl-slash.ts): `#` notes, `/memory` editing, `/model`'s picker,
 * `/init`, `/status`, `/doctor`, `/permissions`, `/config`, `/export`. What they read comes through the
 * ReplInfoPort (the CLI's); without one (tests of the view alone) they say so in a notice.
 */
import type { SessionDriver } from '../driver/session-driver.js';
import { pickerLabel } from '../config/model-catalog.js';
import { checkModelName, KNOWN_MODELS } from '../config/model-profiles.js';
import type { PermissionPolicy } from '../permissions/policy.js';
import type { ChoiceState } from './components/choice-picker.js';
import { conversationMarkdown, defaultExportName, osc52 } from './export-markdown.js';
import type { ReplInfoPort } from './info-port.js';
import { formatMemoryList } from './memory-list.js';
import { addDirCommand } from './add-dir-command.js';
import { errorText } from './repl-driver-view.js';
import type { SlashContext } from './slash-commands.js';
import { createMcpCommand, type McpControl } from './mcp-view.js';

type Tone = 'info' | 'warning' | 'error';

export interface ReplCommandDeps {
  driver: SessionDriver;
  notice(text: string, tone?: Tone): void;
  setChoice(choice: ChoiceState | null): void;
  info?: ReplInfoPort | undefined;
  policy?: PermissionPolicy | undefined;
  /** Writes an allow rule to the project's local settings; returns the file. */
  saveRule?: ((rule: string) => string) | undefined;
  /** Writes to the terminal as is (OSC 52 for `/export --clipboard`). */
  writeTerminal(text: string): void;
  /** Clears the terminal and writes the transcript again (after an editor had the screen). */
  redraw(): void;
  /** The runtime's MCP servers, for /mcp (absent: none configured). */
  mcp?: McpControl | undefined;
}

/** The slash commands this module implements (their signatures are SlashContext's), plus `#` notes and /memory. */
export type ReplCommands = Pick<
  SlashContext,
  | 'showModel'
  | 'setModel'
  | 'init'
  | 'showStatus'
  | 'showDoctor'
  | 'permissions'
  | 'showConfig'
  | 'outputStyle'
  | 'thinking'
  | 'exportConversation'
  | 'mcp'
  | 'plugin'
  | 'addDir'
  | 'sandbox'
> & {
  memoryNote(note: string): void;
  openMemory(): void;
};

const NO_INFO = 'Not available here (no installation details were given to this view).';

export function createReplCommands(deps: ReplCommandDeps): ReplCommands {
  const { driver, notice, setChoice, info } = deps;
  const pick = (title: string, options: readonly string[], selected: number, choose: (index: number) => void) =>
    setChoice({
      title,
      options,
      selected,
      choose: (index) => {
        setChoice(null);
        choose(index);
      },
    });

  const setModel = (name: string): void => {
    const check = checkModelName(name);
    if (!check.ok) return notice(`${check.message}; the model stays ${driver.model}.`, 'error');
    driver.setModel(name);
    notice(`Model set to ${driver.model}.`);
    if (check.warning) notice(check.warning, 'warning');
  };

  return {
    mcp: createMcpCommand({ control: deps.mcp, notice, setChoice }),
    memoryNote: (note) => {
      if (!info) return notice(NO_INFO, 'warning');
      if (!note) return notice('Type the note after #, e.g. # always run npm test before committing.');
      const targets = info.memoryTargets();
      pick(
        `Add to memory: ${note}`,
        targets.map((target) => target.label),
        0,
        (index) => {
          const target = targets[index];
          if (!target) return;
          try {
            notice(`Added to ${info.addMemoryNote(target, note)}`);
          } catch (error) {
            notice(`Could not add the note: ${errorText(error)}`, 'error');
          }
        },
      );
    },
    openMemory: () => {
      notice(formatMemoryList(driver.controller.memoryFiles()));
      if (!info) return;
      const targets = info.memoryTargets();
      pick(
        'Open a memory file in $EDITOR',
        targets.map((target) => `${target.label}  ${target.path}`),
        0,
        (index) => {
          const target = targets[index];
          if (!target) return;
          const result = info.editFile(target.path);
          deps.redraw();
          notice(result);
        },
      );
    },
    showModel: () => {
      const current = driver.model;
      const family = /^claude-/.test(current) ? KNOWN_MODELS.anthropic : KNOWN_MODELS.openai;
      const options = family.includes(current) ? [...family] : [current, ...family];
      pick(
        `Model (now ${pickerLabel(current)}) · or type /model <name>`,
        options.map(pickerLabel),
        Math.max(0, options.indexOf(current)),
        (index) => {
          const chosen = options[index];
          if (chosen && chosen !== current) setModel(chosen);
        },
      );
    },
    setModel,
    init: () => void driver.init(),
    showStatus: () => {
      const head = [`Model: ${driver.model}`, `Mode: ${driver.mode}`, `Session: ${driver.controller.sessionId}`];
      notice(['Status', ...head, ...(info?.statusLines() ?? [NO_INFO])].join('\n'));
    },
    showDoctor: () => {
      if (!info) return notice(NO_INFO, 'warning');
      info.doctorLines().then(
        (lines) => notice(['Doctor', ...lines].join('\n')),
        (error: unknown) => notice(`Doctor failed: ${errorText(error)}`, 'error'),
      );
    },
    permissions: (args) => {
      const match = /^allow\s+(\S[\s\S]*)$/.exec(args.trim());
      if (args.trim() && !match) {
        return notice('Usage: /permissions to list the rules, /permissions allow <rule> to add one.', 'warning');
      }
      if (match?.[1]) {
        if (!deps.saveRule) return notice('No project settings file can be written here.', 'warning');
        try {
          return notice(`Saved allow rule ${match[1]} to ${deps.saveRule(match[1])} (applies from the next session).`);
        } catch (error) {
          return notice(`Could not save ${match[1]}: ${errorText(error)}`, 'error');
        }
      }
      const rules = deps.policy?.rules ?? [];
      if (rules.length === 0) return notice('No permission rules. Add one with /permissions allow <rule>.');
      const lines = (['deny', 'ask', 'allow'] as const).flatMap((behavior) => {
        const own = rules.filter((rule) => rule.behavior === behavior);
        return own.length === 0 ? [] : [`${behavior}:`, ...own.map((rule) => `  ${rule.text}  (${rule.source})`)];
      });
      notice(['Permission rules', ...lines].join('\n'));
    },
    addDir: (args) => (info ? addDirCommand(args, { info, notice, pick }) : notice(NO_INFO, 'warning')),
    sandbox: (args) => {
      if (!info) return notice(NO_INFO, 'warning');
      const word = args.trim();
      if (word !== '' && word !== 'on' && word !== 'off') return notice('Usage: /sandbox [on|off]', 'warning');
      info.sandbox(word === '' ? undefined : word === 'on').then(
        (lines) => notice(lines.join('\n')),
        (error: unknown) => notice(`Sandbox: ${errorText(error)}`, 'error'),
      );
    },

    outputStyle: (args) => {
      if (!info?.outputStyle) return notice(NO_INFO, 'warning');
      info
        .outputStyle(args)
        .then(notice, (error: unknown) => notice(`/output-style failed: ${errorText(error)}`, 'error'));
    },
    thinking: (args) => (info?.thinking ? notice(info.thinking(args)) : notice(NO_INFO, 'warning')),
    plugin: (args) => {
      if (!info?.plugin) return notice(NO_INFO, 'warning');
      info.plugin(args).then(notice, (error: unknown) => notice(`/plugin: ${errorText(error)}`, 'error'));
    },
    showConfig: () => notice(['Settings in effect', ...(info?.configLines() ?? [NO_INFO])].join('\n')),
    exportConversation: (args) => {
      const controller = driver.controller;
      const markdown = conversationMarkdown(controller.history(), {
        sessionId: controller.sessionId,
        model: driver.model,
      });
      const copy = (): void => {
        deps.writeTerminal(osc52(markdown));
        notice(`Copied the conversation (${markdown.length.toLocaleString('en-US')} chars) to the clipboard.`);
      };
      const save = (file: string): void => {
        if (!info) return notice(NO_INFO, 'warning');
        try {
          notice(`Exported the conversation to ${info.exportTo(file, markdown)}`);
        } catch (error) {
          notice(`Could not export: ${errorText(error)}`, 'error');
        }
      };
      const target = args.trim();
      if (target === '--clipboard') return copy();
      if (target !== '') return save(target);
      // No path: ask where, as Claude Code does (a file in the project is written only when the person picks it).
      const name = defaultExportName();
      pick(
        'Export the conversation · or type /export <file> · Esc cancels',
        ['Copy to the clipboard', `Save to ${name} in the project`],
        0,
        (index) => (index === 0 ? copy() : save(name)),
      );
    },
  };
}
