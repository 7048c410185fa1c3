/** The shared "is this path read-denied?" check: Read deny rules, by path as written and by real path. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReadDenyCheck } from '../../src/permissions/read-deny.js';
import { parseRule, type PermissionRule } from '../../src/permissions/rule.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-rd-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function rule(text: string, behavior: 'allow' | 'deny' = 'deny'): PermissionRule {
  const parsed = parseRule(text, behavior, 'test');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
}

describe('createReadDenyCheck', () => {
  it('matches the path, its real path and a directory rule; ignores allow and non-read rules', async () => {
    writeFileSync(join(root, '.env'), 'x');
    mkdirSync(join(root, 'secrets'));
    symlinkSync('.env', join(root, 'link.md'));
    const check = await createReadDenyCheck(
      [rule('Read(./.env)'), rule('Read(secrets/)'), rule('Read(./a.md)', 'allow'), rule('Bash(cat:*)')],
      { projectRoot: root },
    );
    expect(check(join(root, '.env'))?.text).toBe('Read(./.env)');
    expect(check(join(root, 'link.md'))?.text).toBe('Read(./.env)');
    expect(check(join(root, 'secrets', 'k'))?.text).toBe('Read(secrets/)');
    expect(check(join(root, 'a.md'))).toBeUndefined();
  });

  it('denies everything under a whole-tool Read deny, and nothing without deny rules', async () => {
    expect((await createReadDenyCheck([rule('Read')], { projectRoot: root }))(join(root, 'x'))?.text).toBe('Read');
    expect(
      (await createReadDenyCheck([rule('Read', 'allow')], { projectRoot: root }))(join(root, 'x')),
    ).toBeUndefined();
  });
});
