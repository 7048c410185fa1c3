/**
 * The REPL's ReplInfoPort over the runtime: `/status`, `/config`, `/doctor`, the `#`/`/memory` files and
 * `/export`'s file. Reads what exists; MCP servers and hooks are counted from the files
 * that configure them (whether each runs: `/hooks` and `mca mcp list` tell), never guessed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { readClaudeSettings } from '../claude-code/settings.js';
import { addMemoryNote, memoryTargets } from '../context/memory-note.js';
import { readBoundedFile } from '../fs/bounded-read.js';
import { PROJECT_SETTINGS_FILES } from '../permissions/settings-files.js';
import { addLocalDirectory } from '../permissions/settings-writer.js';
import type { ReplInfoPort, StatusState } from '../ui/info-port.js';
import type { Bootstrapped } from './bootstrap.js';
import { doctorLines, keySource, packageVersion } from './doctor-checks.js';
import { runStatusCommand, type StatusLineInput } from './status-command.js';
import { describeSandbox } from '../sandbox/sandbox-switch.js';

import { createSettingsCommands } from './style-thinking-commands.js';

const SMALL_FILE = 1024 * 1024;

function settingsFiles(projectRoot: string, mcaHome: string, home: string): string[] {
  const candidates = [
    join(mcaHome, 'settings.json'),
    join(home, '.claude', 'settings.json'),
    ...PROJECT_SETTINGS_FILES.map((file) => join(projectRoot, file)),
  ];
  return candidates.filter((file) => existsSync(file));
}

function jsonObject(path: string): Record<string, unknown> | undefined {
  const read = readBoundedFile(path, { maxBytes: SMALL_FILE });
  if (!read.ok) return undefined;
  try {
    const parsed: unknown = JSON.parse(read.text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function countKeys(value: unknown): number {
  return value !== null && typeof value === 'object' ? Object.keys(value).length : 0;
}

/** MCP servers in `.mcp.json` and hook events in the settings files, as configured. */
function integrationCounts(projectRoot: string, files: readonly string[]): { mcp: number; hooks: number } {
  const mcp = countKeys(jsonObject(join(projectRoot, '.mcp.json'))?.mcpServers);
  const hooks = files.reduce((sum, file) => sum + countKeys(jsonObject(file)?.hooks), 0);
  return { mcp, hooks };
}

function unsupportedSettings(
  projectRoot: string,
  mcaHome: string,
  home: string,
  trusted: boolean,
): ReadonlyArray<{ key: string; file: string }> {
  return readClaudeSettings({ projectRoot, mcaHome, home, trusted }).unsupported;
}

function unsupportedLines(unsupported: ReadonlyArray<{ key: string; file: string }>): string[] {
  return unsupported.length === 0
    ? []
    : [`Settings keys not implemented (ignored): ${unsupported.map(({ key, file }) => `${key} (${file})`).join(', ')}`];
}

/** Claude Code's status-line JSON for the REPL's state. */
function statusInput(state: StatusState): StatusLineInput {
  const percent = state.contextTokens === null ? null : Math.round((state.contextTokens / state.contextWindow) * 100);
  return {
    hook_event_name: 'Status',
    session_id: state.sessionId,
    cwd: state.cwd,
    model: { id: state.model, display_name: state.model },
    workspace: { current_dir: state.cwd, project_dir: state.cwd },
    version: packageVersion(),
    cost: { total_cost_usd: state.costUsd },
    context_window: { used_tokens: state.contextTokens, window_tokens: state.contextWindow, used_percentage: percent },
  };
}

/** The sandbox's `/doctor` line when it is on: in use, or unavailable and why. */
function sandboxDoctorLines(booted: Bootstrapped): string[] {
  const sandbox = booted.sandbox.status();
  if (!sandbox.enabled) return [];
  return [
    sandbox.available
      ? '✓ sandbox: Bash runs in bubblewrap (details: /sandbox)'
      : `✗ sandbox: on but unavailable (${sandbox.reason ?? 'unknown'}); Bash asks before every command — fix: apt-get install bubblewrap socat, or allow user namespaces`,
  ];
}

export function createSessionInfo(booted: Bootstrapped, startupNotices: readonly string[]): ReplInfoPort {
  const { config, projectRoot, policy } = booted;
  const home = homedir();
  const statusCommand = readClaudeSettings({ projectRoot, mcaHome: config.mcaHome, home, trusted: booted.trusted })
    .statusLine?.command;
  const settingsCommands = createSettingsCommands(booted);
  return {
    outputStyle: settingsCommands.outputStyle,
    thinking: settingsCommands.thinking,
    plugin: async (args) => {
      const { pluginCommandText } = await import('./admin/plugin-command.js');
      return await pluginCommandText(args, booted);
    },
    ...(statusCommand === undefined
      ? {}
      : {
          statusLine: (state: StatusState) => runStatusCommand(statusCommand, projectRoot, statusInput(state)),
        }),
    statusLines: () => {
      const files = settingsFiles(projectRoot, config.mcaHome, home);
      const { mcp, hooks } = integrationCounts(projectRoot, files);
      return [
        `Version: ${packageVersion()}`,
        `Provider: ${config.provider}${config.baseUrl ? ` · endpoint ${config.baseUrl}` : ''}`,
        `API key: ${keySource()}`,
        `Project: ${projectRoot} (${booted.trusted ? 'trusted' : 'not trusted: its allow rules and commands are off'})`,
        `Settings files: ${files.length > 0 ? files.join(', ') : 'none'}`,
        `Added directories: ${booted.roots.list().join(', ') || 'none'}`,
        `Permission rules: ${policy.rules.length}`,
        `MCP servers: ${mcp}${mcp > 0 ? ' in .mcp.json (status: mca mcp list)' : ''}`,
        `Hooks: ${hooks}${hooks > 0 ? ' hook events configured (details: /hooks)' : ''}`,
        `Plugins: ${booted.plugins.map((plugin) => plugin.id).join(', ') || 'none'}`,
        `MCA_HOME: ${config.mcaHome}`,
        ...unsupportedLines(unsupportedSettings(projectRoot, config.mcaHome, home, booted.trusted)),
      ];
    },
    configLines: () =>
      Object.entries(config)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`),
    doctorLines: () =>
      Promise.resolve([
        ...doctorLines({
          mcaHome: config.mcaHome,
          startupNotices,
          unsupported: unsupportedSettings(projectRoot, config.mcaHome, home, booted.trusted),
        }),
        ...sandboxDoctorLines(booted),
      ]),
    memoryTargets: () => memoryTargets(projectRoot, home),
    addMemoryNote: (target, note) => addMemoryNote(target, note, { projectRoot, home }),
    editFile: (path) => {
      const editor = (process.env.VISUAL ?? process.env.EDITOR ?? '').trim();
      if (!editor) return `Set $EDITOR (or $VISUAL) to edit it here; the file is ${path}`;
      const stdin = process.stdin;
      const raw = stdin.isTTY && stdin.isRaw;
      if (raw) stdin.setRawMode(false);
      // The editor is the user's own setting; run through sh so `code -w` and the like work, the path as $1.
      const run = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'mca-editor', path], { stdio: 'inherit' });
      if (raw) stdin.setRawMode(true);
      if (run.error) return `Could not start ${editor}: ${run.error.message}`;
      return run.status === 0 ? `Edited ${path}` : `${editor} exited with ${run.status ?? run.signal ?? '?'}`;
    },
    exportTo: (file, markdown) => {
      const root = realpathSync(projectRoot);
      const target = isAbsolute(file) ? file : resolve(root, file);
      // `wx`: an existing file is never overwritten by an export.
      writeFileSync(target, markdown, { flag: 'wx', mode: 0o644 });
      return target;
    },
    checkDirectory: (dir) => booted.roots.check(dir),
    addDirectory: (dir) => booted.roots.add(dir),
    rememberDirectory: (real) => addLocalDirectory(projectRoot, real),
    sandbox: async (on) => {
      const status = on === undefined ? booted.sandbox.status() : await booted.sandbox.setEnabled(on);
      return describeSandbox(status);
    },
  };
}
