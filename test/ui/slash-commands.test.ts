import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundTasks } from '../../src/tools/processes/background-tasks.js';
import { tasksCommand } from '../../src/ui/tasks-command.js';
import { describe, expect, it } from 'vitest';
import {
  SLASH_COMMANDS,
  closestCommand,
  dispatchSlash,
  parseSlashCommand,
  suggestSlashCommands,
  type SlashContext,
} from '../../src/ui/slash-commands.js';

function recordingContext(): { context: SlashContext; calls: string[] } {
  const calls: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]): void => {
      calls.push([name, ...args.map((arg) => String(arg))].join(' '));
    };
  const context: SlashContext = {
    showHelp: record('help'),
    clearSession: record('clear'),
    compact: record('compact'),
    showContext: record('context'),
    showTodos: record('todos'),
    showMemory: record('memory'),
    showHooks: record('hooks'),
    showSkills: record('skills'),
    showAgents: record('agents'),
    showCost: record('cost'),
    showModel: record('showModel'),
    setModel: record('setModel'),
    init: record('init'),
    showStatus: record('status'),
    showDoctor: record('doctor'),
    permissions: record('permissions'),
    showConfig: record('config'),
    outputStyle: record('outputStyle'),
    thinking: record('thinking'),
    mcp: record('mcp'),
    plugin: record('plugin'),
    addDir: record('addDir'),
    sandbox: record('sandbox'),
    exportConversation: record('export'),
    openSessionPicker: record('picker'),
    openRewind: record('rewind'),
    resumeSession: record('resume'),
    exit: record('exit'),
    notice: record('notice'),
  };
  return { context, calls };
}

describe('parseSlashCommand', () => {
  it('parses a command and its arguments', () => {
    expect(parseSlashCommand('/compact keep the parser work')).toEqual({
      kind: 'command',
      name: 'compact',
      args: 'keep the parser work',
    });
    expect(parseSlashCommand('/MODEL')).toEqual({ kind: 'command', name: 'model', args: '' });
    expect(parseSlashCommand('/quit')).toEqual({ kind: 'command', name: 'exit', args: '' });
  });

  it('leaves plain text and absolute paths alone', () => {
    expect(parseSlashCommand('fix the bug')).toBeNull();
    expect(parseSlashCommand('/usr/bin/env is missing')).toBeNull();
  });

  it('suggests the closest command for a typo', () => {
    expect(parseSlashCommand('/contxt')).toEqual({ kind: 'unknown', name: 'contxt', suggestion: 'context' });
    expect(closestCommand('hlep')).toBe('help');
    expect(closestCommand('zzzzzzzz')).toBeUndefined();
    expect(parseSlashCommand('/stauts')).toEqual({ kind: 'unknown', name: 'stauts', suggestion: 'status' });
    expect(parseSlashCommand('/doctr')).toEqual({ kind: 'unknown', name: 'doctr', suggestion: 'doctor' });
  });

  it('never suggests a command that changes files, the conversation or the session (issue 40)', () => {
    // `/review` once got "Did you mean /rewind?".
    for (const typo of ['reveiw', 'rewnd', 'clea', 'compac', 'exprt', 'resum', 'ini', 'exi', 'add-di']) {
      const suggestion = closestCommand(typo);
      expect(['rewind', 'clear', 'compact', 'export', 'resume', 'init', 'exit', 'add-dir']).not.toContain(suggestion);
    }
  });
});

describe('suggestSlashCommands', () => {
  it('lists commands matching the typed prefix', () => {
    expect(suggestSlashCommands('/c').map((command) => command.name)).toEqual([
      'clear',
      'compact',
      'context',
      'cost',
      'config',
    ]);
    expect(suggestSlashCommands('/')).toHaveLength(SLASH_COMMANDS.length);
    expect(suggestSlashCommands('/compact now')).toEqual([]);
    expect(suggestSlashCommands('hello')).toEqual([]);
  });
});

describe('dispatchSlash', () => {
  it('routes each command to its handler', () => {
    const { context, calls } = recordingContext();
    for (const text of [
      '/help',
      '/help keys',
      '/clear',
      '/compact',
      '/compact auth',
      '/context',
      '/todos',
      '/model',
      '/model opus',
      '/resume',
      '/resume abc',
      '/init',
      '/status',
      '/doctor',
      '/permissions',
      '/permissions allow Bash(npm test)',
      '/config',
      '/settings',
      '/export',
      '/export notes.md',
      '/skills',
      '/agents',
      '/mcp',
      '/mcp reconnect everything',
      '/exit',
    ]) {
      const parsed = parseSlashCommand(text);
      if (parsed) dispatchSlash(parsed, context);
    }
    expect(calls).toEqual([
      'help ',
      'help keys',
      'clear',
      'compact undefined',
      'compact auth',
      'context',
      'todos',
      'showModel',
      'setModel opus',
      'picker',
      'resume abc',
      'init',
      'status',
      'doctor',
      'permissions ',
      'permissions allow Bash(npm test)',
      'config',
      'config',
      'export ',
      'export notes.md',
      'skills',
      'agents',
      'mcp ',
      'mcp reconnect everything',
      'exit',
    ]);
  });

  it('explains an unknown command with a hint', () => {
    const { context, calls } = recordingContext();
    const parsed = parseSlashCommand('/contxt');
    if (parsed) dispatchSlash(parsed, context);
    expect(calls).toEqual(['notice Unknown command /contxt. Did you mean /context? Type /help for the list. warning']);
  });
});

describe('/tasks', () => {
  it('lists background tasks, shows one task output and stops a running one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mca-tasks-cmd-'));
    const tasks = new BackgroundTasks();
    const env = { PATH: process.env.PATH ?? '' };
    const done = tasks.start({ command: 'echo hello-out', callId: 'c1', cwd: dir, shell: '/bin/sh', env, dir });
    const long = tasks.start({ command: 'sleep 30', callId: 'c2', cwd: dir, shell: '/bin/sh', env, dir });
    if (!done.ok || !long.ok) throw new Error('not started');
    await tasks.waitEnded(done.task.id, 10_000, new AbortController().signal);
    const notices: string[] = [];
    const notice = (text: string) => void notices.push(text);
    await tasksCommand('', notice, tasks);
    expect(notices.at(-1)).toMatch(/bash_1 {2}completed, exit 0 {2}echo hello-out\nbash_2 {2}running {2}sleep 30/);
    await tasksCommand('bash_1', notice, tasks);
    expect(notices.at(-1)).toContain('hello-out');
    await tasksCommand('stop bash_2', notice, tasks);
    expect(notices.at(-1)).toBe('Stopped bash_2 (stopped).');
    expect(tasks.get('bash_2')?.status).toBe('stopped');
    // The user's look does not take the output from the model's next read.
    expect((await tasks.read('bash_1'))?.text).toBe('hello-out\n');
  });
});
