/**
 * Issue 23, second red team: control files written through links (class 4), `.git/` as a control directory
 * (class 5), memory imports that were unbounded or too wide or ignored Read deny rules (classes 7 and 6's memory
 * half), and terminal control from config (class 10). Each class is tried in several variants; the binary runs
 * against the loopback fake API and the checks look at what the model was sent, stdout/stderr and the disk.
 * The settings writer, the trust store's neighbours and the tool memory are driven in-process where only the REPL
 * reaches them ("always allow"), with the exact planted files the red team used.
 */
/* eslint-disable no-control-regex -- finding control characters in output is what these tests do */
import { runsWith } from '../helpers/optional-tools.js';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addLocalAllowRule } from '../../src/permissions/settings-writer.js';
import { DirectoryToolMemory, toolRefOf } from '../../src/tools/memory/tool-memory.js';
import { saveInputHistory } from '../../src/ui/input-history.js';
import { TmuxSession, tmuxInfo, waitUntil } from '../e2e/support/tmux.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../helpers/fake-anthropic-server.js';
import { act, API_KEY, BIN, finish, makeSandbox, runMca, type RunResult, type Sandbox } from './harness.js';
import { ResultLog } from './results.js';

const log = new ResultLog('hostile-2');
const order: string[] = [];
const SECRET = 'PRIVATE-KEY-MATERIAL-5e1d77';
const BASHRC = '# the user own ~/.bashrc\n';

interface Env {
  sandbox: Sandbox;
  server: FakeAnthropic;
  /** The directory holding the project (stands in for a home directory that is a git repository). */
  outside: string;
}

function attack(fault: string, script: FakeStep[], check: (env: Env) => Promise<string>, timeout = 60_000): void {
  order.push(fault);
  it(fault, { timeout }, async () => {
    const sandbox = await makeSandbox('mca-hostile2');
    const env: Env = { sandbox, server: await startFakeAnthropic(script), outside: join(sandbox.project, '..') };
    try {
      await log.track('hostile-2', fault, () => check(env));
    } finally {
      await env.server.close();
      await sandbox.cleanup();
    }
  });
}

/** Many binaries run side by side on a small machine: a slow first byte is load, not the attack under test. */
const PATIENT = { MCA_STREAM_IDLE_TIMEOUT_MS: '30000' };

function sentToModel(server: FakeAnthropic): string {
  return server.requests.map((request) => JSON.stringify(request.body)).join('\n');
}

function put(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function mcaLines(result: RunResult): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('mca: '));
}

describe.concurrent('hostile repository, round two', () => {
  afterAll(() => log.write(order));

  // --- Class 4: control files written through links ---------------------------------------------------------------
  const settingsLinks: Array<[string, (project: string, bashrc: string) => void, RegExp | undefined]> = [
    [
      'a symlink planted at the old temp name settings.local.json.<pid>.tmp',
      (project, bashrc) => {
        mkdirSync(join(project, '.claude'));
        symlinkSync(bashrc, join(project, '.claude', `settings.local.json.${process.pid}.tmp`));
      },
      undefined,
    ],
    [
      '.claude itself a symlink to a directory outside',
      (project, bashrc) => symlinkSync(join(bashrc, '..'), join(project, '.claude')),
      /is a symlink/,
    ],
    [
      '.claude a symlink to a directory inside the project',
      (project) => {
        mkdirSync(join(project, 'elsewhere'));
        symlinkSync(join(project, 'elsewhere'), join(project, '.claude'));
      },
      /is a symlink/,
    ],
    [
      'settings.local.json a dangling symlink to a new file outside',
      (project, bashrc) => {
        mkdirSync(join(project, '.claude'));
        symlinkSync(join(bashrc, '..', 'new-profile'), join(project, '.claude', 'settings.local.json'));
      },
      undefined,
    ],
    [
      'settings.local.json a symlink to ~/.bashrc',
      (project, bashrc) => {
        mkdirSync(join(project, '.claude'));
        symlinkSync(bashrc, join(project, '.claude', 'settings.local.json'));
      },
      /symlink/,
    ],
  ];
  for (const [name, plant, refused] of settingsLinks) {
    attack(`"always allow" with ${name}`, [], async (env) => {
      const bashrc = put(join(env.outside, 'bashrc'), BASHRC);
      plant(env.sandbox.project, bashrc);
      let error: Error | undefined;
      try {
        addLocalAllowRule(env.sandbox.project, 'Bash(npm test:*)');
      } catch (caught) {
        error = caught as Error;
      }
      expect(readFileSync(bashrc, 'utf8')).toBe(BASHRC);
      expect(existsSync(join(env.outside, 'new-profile'))).toBe(false);
      if (refused) {
        expect(error?.message).toMatch(refused);
        const shown = (error?.message ?? '').replaceAll(env.outside, '<tmp>').split(';')[0];
        return `refused: ${shown}; ~/.bashrc unchanged`;
      }
      expect(error).toBeUndefined();
      const written = join(env.sandbox.project, '.claude', 'settings.local.json');
      expect(lstatSync(written).isFile()).toBe(true);
      expect(JSON.parse(readFileSync(written, 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm test:*)'] } });
      return 'rule saved in a regular file through a random O_EXCL temp name; the planted link never followed';
    });
  }

  // Registered only where tmux runs (or MCA_REQUIRE_OPTIONAL_TOOLS=1 makes it mandatory): a fresh machine skips it.
  if (runsWith('tmux', tmuxInfo().available, 'the REPL "always allow" hostile test'))
    attack(
      'REPL "always allow" with a symlink planted at .claude/settings.local.json.<pid>.tmp (tmux)',
      [act('Bash', { command: 'npm test' }), finish('done')],
      async (env) => {
        expect(tmuxInfo().available, 'tmux is required for this test (see .ci/run)').toBe(true);
        const bashrc = put(join(env.outside, 'bashrc'), BASHRC);
        mkdirSync(join(env.sandbox.project, '.claude'));
        const launcher = put(
          join(env.outside, 'mca.sh'),
          `#!/bin/sh\nexec env -u CI ANTHROPIC_API_KEY=${API_KEY} ANTHROPIC_BASE_URL=${env.server.url} ` +
            `MCA_HOME=${env.sandbox.home} HOME=${env.outside} ${process.execPath} ${BIN}\n`,
        );
        execFileSync('chmod', ['755', launcher]);
        const term = new TmuxSession();
        term.start({
          command: `env -u CI PS1='t$ ' bash --norc --noprofile`,
          columns: 120,
          rows: 40,
          cwd: env.sandbox.project,
        });
        try {
          await term.waitFor(/t\$$/, { what: 'the shell prompt' });
          term.type(`${launcher}; echo "[exit $?]"`);
          term.keys('Enter');
          await term.waitFor('Ask anything', { what: 'the input box' });
          // The launcher execs node: mca is the shell's only child, and its pid names the old temp file.
          const pid = Number(spawnSync('pgrep', ['-P', String(term.panePid())], { encoding: 'utf8' }).stdout.trim());
          symlinkSync(bashrc, join(env.sandbox.project, '.claude', `settings.local.json.${pid}.tmp`));
          term.type('run the tests');
          term.keys('Enter');
          await term.waitFor(/Always allow/, { what: 'the permission prompt' });
          term.type('4');
          await term.waitFor(/y = save and run/, { what: 'the confirmation' });
          term.type('y');
          const written = join(env.sandbox.project, '.claude', 'settings.local.json');
          await waitUntil(() => existsSync(written), 'the local settings file');
          await term.waitFor('Ask anything', { what: 'the input box after the turn' });
          term.keys('C-d');
          await term.waitFor(/\[exit 0\]/, { what: 'the exit' });
          expect(readFileSync(bashrc, 'utf8')).toBe(BASHRC);
          expect(lstatSync(written).isFile()).toBe(true);
          expect(readFileSync(written, 'utf8')).toContain('npm test');
          return 'the rule saved in a regular .claude/settings.local.json; the planted <pid>.tmp link (to ~/.bashrc) untouched';
        } finally {
          term.kill();
        }
      },
      120_000,
    );

  attack('MCA_HOME files written through planted links (trust store, history, tool memory)', [], async (env) => {
    const bashrc = put(join(env.outside, 'bashrc'), BASHRC);
    const home = env.sandbox.home;
    // mca trust: the store itself a symlink to ~/.bashrc, and the old temp names planted.
    symlinkSync(bashrc, join(home, 'trusted-projects.json'));
    symlinkSync(bashrc, join(home, `trusted-projects.json.${process.pid}.tmp`));
    const result = spawnSync(process.execPath, [BIN, 'trust', env.sandbox.project], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: env.outside, MCA_HOME: home },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(lstatSync(join(home, 'trusted-projects.json')).isFile()).toBe(true);
    // Input history and tool memory, in-process with the old predictable names planted.
    const history = join(home, 'history.jsonl');
    symlinkSync(bashrc, `${history}.${process.pid}.tmp`);
    await saveInputHistory(history, ['one', 'two']);
    expect(lstatSync(history).isFile()).toBe(true);
    const tools = join(home, 'tools');
    mkdirSync(tools);
    const text = 'tool output';
    symlinkSync(join(env.outside, 'dropped'), join(tools, `${toolRefOf(text)}.txt`));
    expect(new DirectoryToolMemory(tools).store(text)).toBe(toolRefOf(text));
    expect(existsSync(join(env.outside, 'dropped'))).toBe(false);
    expect(readFileSync(bashrc, 'utf8')).toBe(BASHRC);
    expect(readlinkSync(`${history}.${process.pid}.tmp`)).toBe(bashrc);
    return 'each written as a regular 0600 file by rename; ~/.bashrc unchanged, nothing created outside';
  });

  // --- Class 5: .git/ is a control directory ------------------------------------------------------------------------
  const FSMONITOR = '[core]\n\tfsmonitor = touch ../PWNED\n';
  const gitWrites: Array<[string, string, (project: string) => void, string]> = [
    ['.git/config (core.fsmonitor)', '.git/config', () => undefined, '.git/config'],
    ['.git/hooks/pre-commit', '.git/hooks/pre-commit', () => undefined, '.git/hooks/pre-commit'],
    ['.GIT/config (case variant)', '.GIT/config', () => undefined, '.git/config'],
    [
      'a symlink resolving into .git (gitlink/config)',
      'gitlink/config',
      (project) => symlinkSync(join(project, '.git'), join(project, 'gitlink')),
      '.git/config',
    ],
    [
      'a nested repository (vendor/lib/.git/hooks/post-checkout)',
      'vendor/lib/.git/hooks/post-checkout',
      (project) => mkdirSync(join(project, 'vendor', 'lib', '.git', 'hooks'), { recursive: true }),
      'vendor/lib/.git/hooks/post-checkout',
    ],
    [
      'the gitdir a .git file names (gitdir: meta/gd)',
      'meta/gd/config',
      (project) => {
        execFileSync('git', ['init', '-q', project]);
        mkdirSync(join(project, 'meta'));
        renameSync(join(project, '.git'), join(project, 'meta', 'gd'));
        writeFileSync(join(project, '.git'), 'gitdir: meta/gd\n');
      },
      'meta/gd/config',
    ],
  ];
  for (const [name, path, prepare, lands] of gitWrites) {
    attack(
      `acceptEdits Write of ${name} (-p)`,
      [
        // Read first: an existing file may only be overwritten after a Read (else CONFLICT, before any question).
        act('Read', { path }),
        act('Write', { path, content: FSMONITOR }),
        act('Write', { path: 'ok.txt', content: 'fine' }),
        finish('done'),
      ],
      async (env) => {
        const project = env.sandbox.project;
        if (!name.includes('gitdir')) execFileSync('git', ['init', '-q', project]);
        prepare(project);
        const before = existsSync(join(project, lands)) ? readFileSync(join(project, lands), 'utf8') : undefined;
        const result = await runMca(env.sandbox, ['--permission-mode', 'acceptEdits', '-p', 'hi'], {
          baseUrl: env.server.url,
          env: PATIENT,
          timeoutMs: 60_000,
        });
        expect(result.code, result.stderr).toBe(0);
        const after = existsSync(join(project, lands)) ? readFileSync(join(project, lands), 'utf8') : undefined;
        expect(after).toBe(before);
        expect(readFileSync(join(project, 'ok.txt'), 'utf8')).toBe('fine');
        const denied = /PERMISSION_DENIED.{0,200}control files \(\.mca\/, \.claude\/, \.git\/\)/;
        const results = sentToModel(env.server).match(/(PERMISSION_DENIED|CONFLICT|ACCESS_DENIED|success).{0,160}/g);
        expect(denied.test(sentToModel(env.server)), `refused as a control file: ${results?.join(' | ')}`).toBe(true);
        execFileSync('git', ['status'], { cwd: project, stdio: 'ignore' });
        expect(existsSync(join(env.outside, 'PWNED'))).toBe(false);
        return 'PERMISSION_DENIED (control file), nothing written; the ordinary Write beside it allowed';
      },
    );
  }

  // --- Class 7: memory imports bounded --------------------------------------------------------------------------
  attack('2,800 symlinked imports of one 40,000-character file (heap capped at 96 MB)', [finish('ok')], async (env) => {
    const project = env.sandbox.project;
    const links = Array.from({ length: 2_800 }, (_, index) => `l/${index}.md`);
    mkdirSync(join(project, 'l'));
    const body = `BIG-MEMORY-FILE ${links.map((link) => `@${link}`).join(' ')} `;
    put(join(project, 'big.md'), body.padEnd(40_000, 'x'));
    for (const link of links) symlinkSync('../big.md', join(project, link));
    put(join(project, 'CLAUDE.md'), `root imports ${links.map((link) => `@${link}`).join(' ')}`);
    const result = await runMca(env.sandbox, ['-p', 'hi'], {
      baseUrl: env.server.url,
      env: { ...PATIENT, NODE_OPTIONS: '--max-old-space-size=96' },
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr.slice(-400)).toBe(0);
    expect(result.stdout).toBe('ok\n');
    const sent = sentToModel(env.server);
    expect(sent.match(/BIG-MEMORY-FILE/g)).toHaveLength(1);
    return 'exit 0; the file read once (deduplicated by real path before reading) and sent once';
  });

  attack('400 distinct imported files of 40,000 characters each', [finish('ok')], async (env) => {
    const project = env.sandbox.project;
    const names = Array.from({ length: 400 }, (_, index) => `m/${index}.md`);
    for (const name of names) put(join(project, name), `FILE-${name} `.padEnd(40_000, 'y'));
    put(join(project, 'CLAUDE.md'), names.map((name) => `@${name}`).join('\n'));
    const result = await runMca(env.sandbox, ['-p', 'hi'], {
      baseUrl: env.server.url,
      env: PATIENT,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr.slice(-400)).toBe(0);
    const system = JSON.stringify(env.server.requests[0]?.body.system ?? '');
    expect(system.length).toBeLessThan(200_000);
    expect(system).toMatch(/memory file\(s\) left out/);
    return `exit 0; system prompt ${Math.round(system.length / 1000)} K characters, the rest left out with a note`;
  });

  attack('300 small distinct imported files (the file cap)', [finish('ok')], async (env) => {
    const project = env.sandbox.project;
    const names = Array.from({ length: 300 }, (_, index) => `s/${index}.md`);
    for (const name of names) put(join(project, name), `SMALL-${name}`);
    put(join(project, 'CLAUDE.md'), names.map((name) => `@${name}`).join('\n'));
    const result = await runMca(env.sandbox, ['-p', 'hi'], {
      baseUrl: env.server.url,
      env: PATIENT,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr.slice(-400)).toBe(0);
    const system = JSON.stringify(env.server.requests[0]?.body.system ?? '');
    const sent = system.match(/SMALL-s\//g)?.length ?? 0;
    expect(sent).toBeLessThan(200);
    expect(system).toMatch(/memory file\(s\) left out because .* or 200 files: /);
    return `exit 0; ${sent} of 300 imports sent (200 files visited, CLAUDE.md included), the rest named in a note`;
  });

  attack('codeLawMaxChars 10,000,000 in a project config', [finish('ok')], async (env) => {
    put(join(env.sandbox.project, '.mca', 'config.json'), JSON.stringify({ codeLawMaxChars: 10_000_000 }));
    const result = await runMca(env.sandbox, ['-p', 'hi'], {
      baseUrl: env.server.url,
      env: PATIENT,
      timeoutMs: 60_000,
    });
    expect(result.code).not.toBe(0);
    expect(mcaLines(result)).toHaveLength(1);
    expect(mcaLines(result)[0]).toMatch(/"codeLawMaxChars" .*\.mca\/config\.json.*from 100 to 200000/);
    return `exit ${result.code}: one line naming the key, the file and the bound 200000`;
  });

  const wideImports: Array<[string, (env: Env) => void]> = [
    ['CLAUDE.md imports @../.ssh/id_rsa', () => undefined],
    ['CLAUDE.md imports @~/.ssh/id_rsa (HOME is the repository)', () => undefined],
    [
      'CLAUDE.md is a symlink to ../.ssh/id_rsa',
      (env) => symlinkSync(join(env.outside, '.ssh', 'id_rsa'), join(env.sandbox.project, 'CLAUDE.md')),
    ],
    [
      'an import of a symlink to ../.ssh/id_rsa',
      (env) => symlinkSync(join(env.outside, '.ssh', 'id_rsa'), join(env.sandbox.project, 'key.md')),
    ],
  ];
  for (const [name, plant] of wideImports) {
    attack(`untrusted project in a repository at home: ${name}`, [finish('ok')], async (env) => {
      execFileSync('git', ['init', '-q', env.outside]);
      put(join(env.outside, '.ssh', 'id_rsa'), `${SECRET}\n`);
      const importLine = name.includes('~/')
        ? '@~/.ssh/id_rsa'
        : name.includes('symlink to')
          ? '@key.md'
          : '@../.ssh/id_rsa';
      if (!name.startsWith('CLAUDE.md is')) put(join(env.sandbox.project, 'CLAUDE.md'), `rules ${importLine}`);
      plant(env);
      const result = await runMca(env.sandbox, ['-p', 'hi'], {
        baseUrl: env.server.url,
        env: { ...PATIENT, HOME: env.outside },
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(sentToModel(env.server)).not.toContain(SECRET);
      expect(result.stdout + result.stderr).not.toContain(SECRET);
      return 'not sent to the model; imports bounded by the project directory';
    });
  }

  // --- Class 6, memory half: imports obey Read deny rules --------------------------------------------------------
  const deniedImports: Array<[string, string, (project: string) => void]> = [
    ['@.env', '@.env', () => undefined],
    ['@./.env', '@./.env', () => undefined],
    ['@sub/../.env', '@sub/../.env', (project) => mkdirSync(join(project, 'sub'))],
    [
      'a symlink to .env (@env-link.md)',
      '@env-link.md',
      (project) => symlinkSync('.env', join(project, 'env-link.md')),
    ],
  ];
  for (const [name, line, prepare] of deniedImports) {
    attack(`CLAUDE.md imports ${name} under a Read(./.env) deny rule`, [finish('ok')], async (env) => {
      const project = env.sandbox.project;
      put(join(project, '.env'), `API_TOKEN=${SECRET}\n`);
      put(join(project, '.mca', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }));
      put(join(project, 'CLAUDE.md'), `project rules ${line}`);
      prepare(project);
      const result = await runMca(env.sandbox, ['-p', 'hi'], {
        baseUrl: env.server.url,
        env: PATIENT,
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(sentToModel(env.server)).toContain('project rules');
      expect(sentToModel(env.server)).not.toContain(SECRET);
      expect(result.stderr).toMatch(/denied by Read\(\.\/\.env\)/);
      return 'not sent; one warning: skipped … denied by Read(./.env)';
    });
  }

  // --- Class 10: terminal control from config --------------------------------------------------------------------
  const evilModels: Array<[string, Record<string, string>]> = [
    ['model with OSC 52 (clipboard)', { model: 'claude\u001b]52;c;cm0gLXJmIH4=\u0007' }],
    ['model with OSC 2 (window title)', { model: 'claude\u001b]2;owned\u0007' }],
    ['model with a C1 CSI', { model: 'claude\u009b2J' }],
    ['summaryModel with a bidi override', { summaryModel: 'claude\u202emodel' }],
  ];
  for (const [name, config] of evilModels) {
    attack(`.mca/config.json sets a ${name}`, [finish('ok')], async (env) => {
      put(join(env.sandbox.project, '.mca', 'config.json'), JSON.stringify(config));
      const result = await runMca(env.sandbox, ['-p', 'hi'], {
        baseUrl: env.server.url,
        env: PATIENT,
        timeoutMs: 60_000,
      });
      expect(result.code).not.toBe(0);
      expect(env.server.requests).toHaveLength(0);
      expect(result.stderr).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
      expect(mcaLines(result)).toHaveLength(1);
      expect(mcaLines(result)[0]).toMatch(/invalid config value for "(summaryModel|model)" \(in .*config\.json\)/);
      return `exit ${result.code}: one line naming the key and the file; no escape byte reached the terminal`;
    });
  }

  attack('a project command file sets model: with an escape sequence', [finish('ok')], async (env) => {
    put(
      join(env.sandbox.project, '.claude', 'commands', 'go.md'),
      '---\nmodel: "x\\u001b]2;owned\\u0007"\n---\nsay ok\n',
    );
    const result = await runMca(env.sandbox, ['-p', '/go'], {
      baseUrl: env.server.url,
      env: PATIENT,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(env.server.requests[0]?.body.model)).not.toContain('owned');
    expect(result.stdout + result.stderr).not.toMatch(/[\u001b\u0007]/);
    return 'the model name is not used; the default model answered';
  });
});
