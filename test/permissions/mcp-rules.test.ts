import { realpathSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../../src/permissions/policy.js';
import { mcpToolName } from '../../src/mcp/tool-names.js';
import { parseRule, splitRuleList, type RuleBehavior } from '../../src/permissions/rule.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mca-mcp-rules-')));

function policy(rules: Array<[RuleBehavior, string]>): PermissionPolicy {
  return new PermissionPolicy(
    rules.map(([behavior, text]) => {
      const parsed = parseRule(text, behavior, 'test');
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    }),
    { projectRoot: root },
  );
}

describe('MCP permission rules (Claude Code names)', () => {
  it('parses names with hyphens and the server wildcard', () => {
    for (const text of ['mcp__my-server__get-issue', 'mcp__my-server', 'mcp__my-server__*']) {
      const parsed = parseRule(text, 'allow', 'test');
      expect(parsed.ok && parsed.rule.tool).toBe(text);
    }
    expect(splitRuleList(['mcp__a-b__c-d,mcp__x'])).toEqual(['mcp__a-b__c-d', 'mcp__x']);
  });

  it('a server rule covers every tool of that server and no other', async () => {
    for (const rule of ['mcp__git-hub', 'mcp__git-hub__*']) {
      const allow = policy([['allow', rule]]);
      expect((await allow.evaluate('mcp__git-hub__get_issue', {})).behavior).toBe('allow');
      expect((await allow.evaluate('mcp__git-hub__create-pr', {})).behavior).toBe('allow');
      expect((await allow.evaluate('mcp__git-hubx__get_issue', {})).behavior).toBe('none');
      expect((await allow.evaluate('mcp__other__get_issue', {})).behavior).toBe('none');
      expect((await allow.evaluate('Bash', { command: 'ls' })).behavior).toBe('none');
    }
  });

  it('a tool rule covers only that tool; deny wins over a server allow', async () => {
    const rules = policy([
      ['allow', 'mcp__github'],
      ['deny', 'mcp__github__delete_repo'],
    ]);
    expect((await rules.evaluate('mcp__github__get_issue', {})).behavior).toBe('allow');
    expect((await rules.evaluate('mcp__github__delete_repo', {})).behavior).toBe('deny');
    const one = policy([['allow', 'mcp__github__get_issue']]);
    expect((await one.evaluate('mcp__github__get_issue_2', {})).behavior).toBe('none');
  });

  it('rules match whole server names: the tools of `github__docs` or `github_` are never `mcp__github__…` (round three, class 6)', async () => {
    const allow = policy([['allow', 'mcp__github']]);
    for (const server of ['github__docs', 'github_', 'github___', 'github__']) {
      const name = mcpToolName(server, 'x', new Set());
      expect(name.startsWith('mcp__github__')).toBe(false);
      expect((await allow.evaluate(name, {})).behavior).toBe('none');
    }
    expect(mcpToolName('github', 'docs__x', new Set())).toBe('mcp__github__docs__x');
    expect((await allow.evaluate(mcpToolName('github', 'docs__x', new Set()), {})).behavior).toBe('allow');
  });
});
