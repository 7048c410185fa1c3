import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitBashCommand } from '../../src/permissions/bash-parts.js';
import { PermissionPolicy } from '../../src/permissions/policy.js';
import { parseRule, splitRuleList, type RuleBehavior } from '../../src/permissions/rule.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-policy-')));
writeFileSync(join(root, '.env'), 'SECRET=1');
mkdirSync(join(root, 'src'));
symlinkSync(join(root, '.env'), join(root, 'src', 'innocent.txt'));

function policy(rules: Array<[RuleBehavior, string]>): PermissionPolicy {
  return new PermissionPolicy(
    rules.map(([behavior, text]) => {
      const parsed = parseRule(text, behavior, 'test');
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    }),
    { projectRoot: root, home: '/home/someone' },
  );
}

const bash = (command: string) => ({ command });

describe('splitBashCommand', () => {
  it('splits compound commands at every operator', () => {
    expect(splitBashCommand('npm test && curl x | sh; echo "a  b" || ls & pwd')).toEqual({
      kind: 'parts',
      parts: ['npm test', 'curl x', 'sh', 'echo a  b', 'ls', 'pwd'],
    });
    expect(splitBashCommand('npm test 2>&1 >/dev/null')).toEqual({ kind: 'parts', parts: ['npm test'] });
    // A newline separates commands as ; does; a carriage return is an ordinary character to bash.
    expect(splitBashCommand('npm test\nrm -rf x')).toEqual({ kind: 'parts', parts: ['npm test', 'rm -rf x'] });
    expect(splitBashCommand('npm test\r rm -rf x')).toEqual({ kind: 'parts', parts: ['npm test\r rm -rf x'] });
  });

  it('refuses to vouch for what it cannot parse faithfully', () => {
    for (const command of [
      'npm test $(rm -rf x)',
      'npm test `rm -rf x`',
      'npm test "$(rm -rf x)"',
      'npm test ${X}',
      'npm test $X',
      'cat <(rm x)',
      'npm test > src/a.ts',
      'npm test >> ~/.bashrc',
    ]) {
      expect(splitBashCommand(command).kind, command).toBe('opaque');
    }
  });
});

describe('PermissionPolicy', () => {
  it('allows a prefix rule only when every part of a compound command matches', async () => {
    const rules = policy([
      ['allow', 'Bash(npm test:*)'],
      ['allow', 'Bash(git status)'],
    ]);
    expect((await rules.evaluate('Bash', bash('npm test'))).behavior).toBe('allow');
    expect((await rules.evaluate('Bash', bash('npm test -- --run a.test.ts'))).behavior).toBe('allow');
    expect((await rules.evaluate('Bash', bash('git status && npm test'))).behavior).toBe('allow');
    for (const command of [
      'npm testing',
      'npm test && rm -rf x',
      'npm test; curl x | sh',
      'npm publish',
      'git status --porcelain',
      'npm test $(curl evil)',
      'npm test\nrm -rf x',
      'FOO=1 npm test',
    ]) {
      expect((await rules.evaluate('Bash', bash(command))).behavior, command).toBe('none');
    }
  });

  it('names why an unparseable or partly covered command found no allow rule', async () => {
    const rules = policy([['allow', 'Bash(npm test:*)']]);
    expect(await rules.evaluate('Bash', bash('npm test && rm -rf x'))).toEqual({
      behavior: 'none',
      note: '`rm -rf x` is not covered by an allow rule',
    });
    expect(await rules.evaluate('Bash', bash('npm test `id`'))).toMatchObject({ note: /backtick/ });
  });

  it('puts deny before ask before allow, and a deny finds any part, even in an unparseable command', async () => {
    const rules = policy([
      ['allow', 'Bash'],
      ['ask', 'Bash(git push:*)'],
      ['deny', 'Bash(rm:*)'],
    ]);
    expect(await rules.evaluate('Bash', bash('ls && rm -rf /'))).toMatchObject({ behavior: 'deny' });
    expect(await rules.evaluate('Bash', bash('echo $(rm -rf /)'))).toMatchObject({ behavior: 'deny' });
    expect(await rules.evaluate('Bash', bash('git push origin main'))).toMatchObject({ behavior: 'ask' });
    expect(await rules.evaluate('Bash', bash('ls `whoami`'))).toMatchObject({ behavior: 'allow' });
  });

  it('matches path rules however the path is spelled, symlinks included', async () => {
    const rules = policy([
      ['allow', 'Read'],
      ['deny', 'Read(./.env)'],
      ['allow', 'Edit(src/**)'],
    ]);
    for (const path of ['.env', './.env', 'src/../.env', join(root, '.env'), 'src/innocent.txt']) {
      expect((await rules.evaluate('Read', { path })).behavior, path).toBe('deny');
    }
    expect((await rules.evaluate('Grep', { pattern: 'x', path: '.env' })).behavior).toBe('deny');
    expect((await rules.evaluate('Read', { path: 'src/a.ts' })).behavior).toBe('allow');
    expect((await rules.evaluate('Write', { path: 'src/new/a.ts' })).behavior).toBe('allow');
    expect((await rules.evaluate('MultiEdit', { path: 'test/a.ts' })).behavior).toBe('none');
    // A symlink inside src/ pointing out of it is not covered by an allow rule for src/**.
    expect((await rules.evaluate('Edit', { path: 'src/innocent.txt' })).behavior).toBe('none');
  });

  it('a pattern without a slash matches at any depth; a directory covers its contents', async () => {
    const rules = policy([
      ['deny', 'Read(*.pem)'],
      ['deny', 'Edit(./secrets)'],
    ]);
    expect((await rules.evaluate('Read', { path: 'deep/er/key.pem' })).behavior).toBe('deny');
    expect((await rules.evaluate('Write', { path: 'secrets/a/b.txt' })).behavior).toBe('deny');
    expect((await rules.evaluate('Write', { path: 'secretsX/b.txt' })).behavior).toBe('none');
  });
});

describe('rule syntax', () => {
  it('parses tool names, specifiers and flag lists', () => {
    expect(parseRule('Bash(npm test:*)', 'allow', 'x')).toMatchObject({
      ok: true,
      rule: { tool: 'Bash', specifier: 'npm test:*' },
    });
    expect(parseRule('Edit', 'deny', 'x')).toMatchObject({ ok: true, rule: { tool: 'Edit', specifier: undefined } });
    expect(parseRule('Bash(*)', 'deny', 'x')).toMatchObject({ ok: true, rule: { specifier: undefined } });
    expect(parseRule('rm -rf', 'allow', 'x')).toMatchObject({ ok: false });
    expect(parseRule(42, 'allow', 'x')).toMatchObject({ ok: false });
    expect(splitRuleList(['Bash(git diff:*),Edit', 'Bash(npm run build) Read'])).toEqual([
      'Bash(git diff:*)',
      'Edit',
      'Bash(npm run build)',
      'Read',
    ]);
  });
});
