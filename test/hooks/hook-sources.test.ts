import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHooks, openHooks } from '../../src/hooks/hook-sources.js';
import { tempProject } from '../helpers/temp-project.js';

function write(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
}

function hooksOf(event: string, command: string, matcher?: string): unknown {
  return {
    hooks: { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] }] },
  };
}

function setup() {
  const project = tempProject('mca-hook-sources-');
  const userHome = join(dirname(project.root), 'userhome');
  mkdirSync(userHome);
  return { ...project, userHome };
}

describe('hooks from every settings scope', () => {
  it('reads the user files and, in a trusted project, every project file, in order', () => {
    const { root, home, userHome } = setup();
    write(join(home, 'settings.json'), hooksOf('PreToolUse', 'mca-home', 'Bash'));
    write(join(userHome, '.claude', 'settings.json'), hooksOf('PostToolUse', 'claude-home', 'Edit|Write'));
    write(join(root, '.mca', 'settings.json'), hooksOf('Stop', 'mca-project'));
    write(join(root, '.claude', 'settings.json'), hooksOf('UserPromptSubmit', 'claude-project'));
    write(join(root, '.claude', 'settings.local.json'), hooksOf('SessionStart', 'claude-local', 'startup'));
    const loaded = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: true });
    expect(loaded.notices).toEqual([]);
    expect(loaded.active.map((hook) => [hook.event, hook.matcher, hook.command, hook.scope])).toEqual([
      ['PreToolUse', 'Bash', 'mca-home', 'user'],
      ['PostToolUse', 'Edit|Write', 'claude-home', 'user'],
      ['Stop', '', 'mca-project', 'project'],
      ['UserPromptSubmit', '', 'claude-project', 'project'],
      ['SessionStart', 'startup', 'claude-local', 'project'],
    ]);
    expect(loaded.active[1]?.source).toBe(join(userHome, '.claude', 'settings.json'));
    expect(loaded.active[0]?.timeoutSec).toBe(600);
    expect(loaded.active[0]?.key).toBe('hooks.PreToolUse[0].hooks[0]');
  });

  it("an untrusted project's hooks are pending and named once; the user's still run", () => {
    const { root, home, userHome } = setup();
    write(join(home, 'settings.json'), hooksOf('PreToolUse', 'mine'));
    write(join(root, '.claude', 'settings.json'), hooksOf('PreToolUse', './evil.sh'));
    const loaded = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: false });
    expect(loaded.active.map((hook) => hook.command)).toEqual(['mine']);
    expect(loaded.pending.map((hook) => hook.command)).toEqual(['./evil.sh']);
    expect(loaded.notices).toEqual([
      'ignored 1 hook command(s) from this project\'s settings ("./evil.sh"): the project is not trusted; run `mca trust` to use them',
    ]);
  });

  it('disableAllHooks in a user file turns everything off; in a project file only once trusted for the user hooks', () => {
    const { root, home, userHome } = setup();
    write(join(home, 'settings.json'), hooksOf('PreToolUse', 'mine'));
    write(join(root, '.claude', 'settings.json'), { ...(hooksOf('Stop', 'theirs') as object), disableAllHooks: true });
    const untrusted = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: false });
    expect(untrusted.active.map((hook) => hook.command)).toEqual(['mine']);
    expect(untrusted.pending).toEqual([]);
    const trusted = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: true });
    expect(trusted.active).toEqual([]);
    expect(trusted.disabledBy).toBe(join(root, '.claude', 'settings.json'));

    write(join(userHome, '.claude', 'settings.json'), { disableAllHooks: true });
    write(join(root, '.claude', 'settings.json'), hooksOf('Stop', 'theirs'));
    const off = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: true });
    expect(off.active).toEqual([]);
    expect(off.disabledBy).toBe(join(userHome, '.claude', 'settings.json'));
  });

  it('each unusable entry is one warning naming the file and the key; the rest of the file applies', () => {
    const { root, home, userHome } = setup();
    const file = join(home, 'settings.json');
    write(file, {
      disableAllHooks: 'yes',
      hooks: {
        PreToolUse: [
          { matcher: 'Bash(', hooks: [{ type: 'command', command: 'bad-matcher' }] },
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'judge it' },
              { type: 'command', command: '' },
              { type: 'command', command: 'good', timeout: -5 },
              'not an object',
            ],
          },
          { matcher: 'Read' },
        ],
        Stop: 'not a list',
        SubagentStart: [{ hooks: [{ type: 'command', command: 'x' }] }],
      },
    });
    const loaded = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: true });
    expect(loaded.active.map((hook) => [hook.command, hook.timeoutSec])).toEqual([['good', 600]]);
    expect(loaded.notices).toHaveLength(9);
    for (const notice of loaded.notices) expect(notice).toContain(file);
    expect(loaded.notices).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ignored hooks\.PreToolUse\[0\]\.matcher in .*: "matcher" is not a valid regular/),
        expect.stringMatching(/^ignored hooks\.PreToolUse\[1\]\.hooks\[0\] in .*"prompt" is not supported/),
        expect.stringMatching(/^ignored hooks\.PreToolUse\[1\]\.hooks\[1\] in .*non-empty string/),
        expect.stringMatching(/^ignored hooks\.PreToolUse\[1\]\.hooks\[2\]\.timeout in .*positive number/),
        expect.stringMatching(/^ignored hooks\.PreToolUse\[1\]\.hooks\[3\] in /),
        expect.stringMatching(/^ignored hooks\.PreToolUse\[2\] in .*"hooks" list/),
        expect.stringMatching(/^ignored hooks\.Stop in /),
        expect.stringMatching(/^ignored hooks\.SubagentStart in .*does not fire a "SubagentStart" event/),
        expect.stringMatching(/^ignored disableAllHooks in /),
      ]),
    );
  });

  it('a broken or hostile file never throws, and control characters in keys are neutralised', () => {
    const { root, home, userHome } = setup();
    write(join(home, 'settings.json'), '{not json');
    write(join(root, '.claude', 'settings.json'), { hooks: { 'Evil\u001b]0;pwned\u0007': [] } });
    mkdirSync(join(root, '.mca', 'settings.json'), { recursive: true });
    const loaded = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: true });
    expect(loaded.active).toEqual([]);
    expect(loaded.notices).toHaveLength(1);
    expect(loaded.notices[0]).toContain('Evil␛]0;pwned␇');
    expect(loaded.notices[0]).not.toContain('\u001b');
  });

  it('matcher "*" is stored as match-all; a hooks value that is not an object is one warning', () => {
    const { root, home, userHome } = setup();
    write(join(home, 'settings.json'), hooksOf('PostToolUse', 'all', '*'));
    write(join(root, '.mca', 'settings.json'), { hooks: [] });
    const loaded = loadHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: true });
    expect(loaded.active.map((hook) => hook.matcher)).toEqual(['']);
    expect(loaded.notices).toEqual([
      `ignored hooks in ${join(root, '.mca', 'settings.json')}: it must be an object keyed by event name`,
    ]);
  });
});

describe('openHooks', () => {
  it('builds no engine when no hook is in effect, and one when some is', async () => {
    const { root, home, userHome } = setup();
    expect((await openHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: false })).engine).toBe(
      undefined,
    );
    write(join(home, 'settings.json'), hooksOf('Stop', 'true'));
    const opened = await openHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: false });
    expect(opened.engine?.has('Stop')).toBe(true);
    expect(opened.engine?.has('PreToolUse')).toBe(false);
  });
});
