/**
 * The REPL's ReplInfoPort over the runtime: `/status`, `/config`, `/doctor`, the `#`/`/memory` files and
 * `/export`'s file. Reads what exists; MCP servers and hooks are counted from the files
 * that configure them (whether each runs: `/hooks` and `mca mcp list` tell), never guessed.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addMemoryNote, memoryTargets } from '../context/memory-note.js';
import { readBoundedFile } from '../fs/bounded-read.js';
import { PROJECT_SETTINGS_FILES } from '../permissions/settings-files.js';
import { addLocalDirectory } from '../permissions/settings-writer.js';
import { findRipgrep } from '../tools/grep-ripgrep.js';
import type { ReplInfoPort } from '../ui/info-port.js';
import type { Bootstrapped } from './bootstrap.js';
import { describeSandbox } from '../sandbox/sandbox-switch.js';
import { readPackageVersion } from './version.js';

const SMALL_FILE = 1024 * 1024;

/** The package version, or `unknown` when the package.json beside dist/ cannot be read (a test build). */
function version(): string {
  try {
    return readPackageVersion(dirname(fileURLToPath(import.meta.url)));
  } catch {
    return 'unknown';
  }
}

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

function keySource(): string {
  if (process.env.ANTHROPIC_API_KEY?.trim()) return 'ANTHROPIC_API_KEY (environment)';
  if (process.env.OPENAI_API_KEY?.trim()) return 'OPENAI_API_KEY (environment)';
  return 'none';
}

function ripgrepLine(): string {
  const rg = findRipgrep();
  if (!rg)
    return '✗ ripgrep not found — fix: install it (apt install ripgrep, brew install ripgrep); Grep falls back to a slower built-in search';
  const run = spawnSync(rg, ['--version'], { encoding: 'utf8', timeout: 5000 });
  const first = (run.stdout ?? '').split('\n')[0]?.trim() || 'version unknown';
  return `✓ ripgrep: ${rg} (${first})`;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function createSessionInfo(booted: Bootstrapped, startupNotices: readonly string[]): ReplInfoPort {
  const { config, projectRoot, policy } = booted;
  const home = homedir();
  return {
    statusLines: () => {
      const files = settingsFiles(projectRoot, config.mcaHome, home);
      const { mcp, hooks } = integrationCounts(projectRoot, files);
      return [
        `Version: ${version()}`,
        `Provider: ${config.provider}${config.baseUrl ? ` · endpoint ${config.baseUrl}` : ''}`,
        `API key: ${keySource()}`,
        `Project: ${projectRoot} (${booted.trusted ? 'trusted' : 'not trusted: its allow rules and commands are off'})`,
        `Settings files: ${files.length > 0 ? files.join(', ') : 'none'}`,
        `Added directories: ${booted.roots.list().join(', ') || 'none'}`,
        `Permission rules: ${policy.rules.length}`,
        `MCP servers: ${mcp}${mcp > 0 ? ' in .mcp.json (status: mca mcp list)' : ''}`,
        `Hooks: ${hooks}${hooks > 0 ? ' hook events configured (details: /hooks)' : ''}`,
        `MCA_HOME: ${config.mcaHome}`,
      ];
    },
    configLines: () =>
      Object.entries(config)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`),
    doctorLines: async () => {
      const lines = [`✓ mca ${version()} on Node ${process.versions.node} (${process.argv[1] ?? 'unknown path'})`];
      const major = Number(process.versions.node.split('.')[0]);
      if (major < 20) lines.push('✗ Node is older than 20 — fix: install Node 20 or newer');
      lines.push(ripgrepLine());
      const term = process.env.TERM ?? '';
      lines.push(
        term && term !== 'dumb'
          ? `✓ terminal: TERM=${term}, ${process.stdout.columns ?? '?'}×${process.stdout.rows ?? '?'}`
          : '✗ terminal: TERM is unset or dumb — fix: export TERM=xterm-256color',
      );
      lines.push(
        writable(config.mcaHome) || !existsSync(config.mcaHome)
          ? `✓ MCA_HOME ${config.mcaHome} is writable`
          : `✗ MCA_HOME ${config.mcaHome} is not writable — fix: chmod u+w it or set MCA_HOME elsewhere`,
      );
      const sandbox = booted.sandbox.status();
      if (sandbox.enabled) {
        lines.push(
          sandbox.available
            ? '✓ sandbox: Bash runs in bubblewrap (details: /sandbox)'
            : `✗ sandbox: on but unavailable (${sandbox.reason ?? 'unknown'}); Bash asks before every command — fix: apt-get install bubblewrap socat, or allow user namespaces`,
        );
      }
      if (startupNotices.length === 0) lines.push('✓ settings: no problems found at start');
      for (const notice of startupNotices) lines.push(`✗ settings: ${notice} — fix: edit the file named`);
      return lines;
    },
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
