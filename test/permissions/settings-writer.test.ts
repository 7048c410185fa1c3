import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalScope } from '../../src/permissions/approval-scope.js';
import { loadPermissionPolicy } from '../../src/permissions/settings-files.js';
import { addLocalAllowRule } from '../../src/permissions/settings-writer.js';

describe('always allow: .claude/settings.local.json', () => {
  it('adds the rule once, keeps the other keys, and the rule applies in a trusted project only', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-writer-')));
    mkdirSync(join(root, '.claude'));
    writeFileSync(
      join(root, '.claude', 'settings.local.json'),
      JSON.stringify({ env: { A: '1' }, permissions: { deny: ['Bash(rm:*)'] } }),
    );
    const file = addLocalAllowRule(root, 'Bash(npm test:*)');
    addLocalAllowRule(root, 'Bash(npm test:*)');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      env: { A: '1' },
      permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(npm test:*)'] },
    });
    const sources = { projectRoot: root, mcaHome: join(root, 'nohome'), home: join(root, 'nohome') };
    const untrusted = loadPermissionPolicy({ ...sources, trusted: false });
    expect((await untrusted.policy.evaluate('Bash', { command: 'npm test' })).behavior).toBe('none');
    const trusted = loadPermissionPolicy({ ...sources, trusted: true });
    expect((await trusted.policy.evaluate('Bash', { command: 'npm test' })).behavior).toBe('allow');
    expect((await trusted.policy.evaluate('Bash', { command: 'rm -rf x' })).behavior).toBe('deny');
  });

  it('refuses to overwrite a file that is not a JSON object', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-writer-')));
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.local.json'), '[1,2]');
    expect(() => addLocalAllowRule(root, 'Edit')).toThrow(/not a JSON object/);
    expect(readFileSync(join(root, '.claude', 'settings.local.json'), 'utf8')).toBe('[1,2]');
  });

  it('scopes a simple command to its prefix and offers nothing for a compound one', async () => {
    expect(await approvalScope('Bash', { command: 'git status --short' })).toEqual({
      label: '`git status` commands',
      rule: 'Bash(git status:*)',
    });
    expect((await approvalScope('Bash', { command: 'ls -la' }))?.rule).toBe('Bash(ls:*)');
    expect(await approvalScope('Bash', { command: 'npm test && curl x | sh' })).toBeUndefined();
    expect(await approvalScope('Bash', { command: 'npm test $(id)' })).toBeUndefined();
    expect(await approvalScope('MultiEdit', { path: 'a' })).toEqual({ label: 'file edits', rule: 'Edit' });
  });
});
