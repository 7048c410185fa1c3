/**
 * PreToolUse and PermissionRequest hooks in the decision point, with real hook scripts: where they stand among the
 * rules, the mode and the person (DESIGN.md: deny rules → hooks → ask rules → mode → allow rules → broker; a hook's
 * allow never overrides a deny or ask rule).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../src/config/config.js';
import { createDecisionPoint } from '../../src/driver/decision-point.js';
import { openHooks } from '../../src/hooks/hook-sources.js';
import { SessionHooks } from '../../src/hooks/session-hooks.js';
import { PermissionPolicy } from '../../src/permissions/policy.js';
import { parseRule, type RuleBehavior } from '../../src/permissions/rule.js';
import type { CallSource, PermissionDecision } from '../../src/tools/registry/define-tool.js';
import type { ApprovalRequest } from '../../src/tools/registry/tool-context.js';
import { tempProject } from '../helpers/temp-project.js';

/** One PreToolUse hook answering `answer` (JSON) for every Bash call, and optionally a PermissionRequest hook. */
async function hooked(answer: unknown, permissionAnswer?: unknown) {
  const { root, home } = tempProject('mca-decision-hooks-');
  const userHome = join(dirname(root), 'userhome');
  mkdirSync(userHome);
  const script = (name: string, value: unknown) => {
    writeFileSync(
      join(root, name),
      `#!/bin/sh\ncat >> "$CLAUDE_PROJECT_DIR/${name}.log"\necho '${JSON.stringify(value)}'\n`,
    );
    chmodSync(join(root, name), 0o755);
    return [{ matcher: 'Bash', hooks: [{ type: 'command', command: `./${name}` }] }];
  };
  mkdirSync(home, { recursive: true });
  const hooks = {
    PreToolUse: script('pre.sh', answer),
    ...(permissionAnswer === undefined ? {} : { PermissionRequest: script('request.sh', permissionAnswer) }),
  };
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }));
  const opened = await openHooks({ projectRoot: root, mcaHome: home, home: userHome, trusted: false });
  const info = () => ({ sessionId: 's', transcriptPath: '/t', cwd: root, permissionMode: 'default' });
  return new SessionHooks(opened.loaded, opened.engine, info, () => undefined);
}

const rules = (entries: Array<[RuleBehavior, string]>) =>
  new PermissionPolicy(
    entries.map(([behavior, text]) => {
      const parsed = parseRule(text, behavior, 'settings.json');
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.rule;
    }),
    { projectRoot: '/project' },
  );

const pre = (decision: string, extra: Record<string, unknown> = {}) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, ...extra },
});

async function decide(
  hooks: SessionHooks,
  command: string,
  options: { mode?: PermissionMode; policy?: PermissionPolicy; asked?: string[]; source?: CallSource } = {},
): Promise<PermissionDecision> {
  const broker = options.asked
    ? {
        ask: async (request: ApprovalRequest) => {
          options.asked?.push(`${request.title}|${request.detail ?? ''}`);
          return { approved: true as const };
        },
        cancel: () => undefined,
      }
    : undefined;
  const point = createDecisionPoint({ mode: () => options.mode ?? 'default', policy: options.policy, broker, hooks });
  const input = { command, timeout_ms: 120000 };
  const request: ApprovalRequest = { tool: 'Bash', title: `Bash(${command})`, input, kind: 'exec' };
  return await point.decide({ id: 'toolu_1', name: 'Bash', input, source: options.source ?? 'model' }, request);
}

describe('PreToolUse hooks in the decision point', () => {
  it("a hook's allow skips the question, but never a deny rule or an ask rule", async () => {
    const hooks = await hooked(pre('allow'));
    expect(await decide(hooks, 'npm test')).toEqual({ behavior: 'allow' });
    const denied = await decide(hooks, 'git push', { policy: rules([['deny', 'Bash(git push:*)']]) });
    expect(denied.behavior).toBe('deny');
    const asked: string[] = [];
    const askRule = rules([['ask', 'Bash(git commit:*)']]);
    expect(await decide(hooks, 'git commit -m x', { policy: askRule, asked })).toEqual({ behavior: 'allow' });
    expect(asked).toHaveLength(1);
    expect((await decide(hooks, 'git commit -m x', { policy: askRule })).behavior).toBe('deny');
  });

  it('deny is final with its reason; ask asks the person (showing the reason) or refuses with nobody to ask', async () => {
    const deny = await hooked(pre('deny', { permissionDecisionReason: 'not on Fridays' }));
    expect(await decide(deny, 'ls', { mode: 'bypassPermissions' })).toEqual({
      behavior: 'deny',
      message: 'not on Fridays',
    });
    const ask = await hooked(pre('ask', { permissionDecisionReason: 'check the target' }));
    const asked: string[] = [];
    expect(await decide(ask, 'rm x', { asked, mode: 'bypassPermissions' })).toEqual({ behavior: 'allow' });
    expect(asked).toEqual(['Bash(rm x)|A PreToolUse hook asks: check the target']);
    const refused = await decide(ask, 'rm x');
    expect(refused).toEqual({
      behavior: 'deny',
      message:
        'Bash(rm x) must be confirmed by the user: a PreToolUse hook asks (check the target), and no one can answer in this mode',
    });
  });

  it('updatedInput is carried to the registry and judged by the deny rules in place of the original', async () => {
    const hooks = await hooked(pre('allow', { updatedInput: { command: 'git push --force' } }));
    const policy = rules([['deny', 'Bash(git push --force:*)']]);
    expect((await decide(hooks, 'git status', { policy })).behavior).toBe('deny');
    expect(await decide(hooks, 'git status')).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'git push --force' },
    });
  });

  it("the user's own ! lines run no hook; plan mode still refuses what a hook allows", async () => {
    const hooks = await hooked(pre('deny', { permissionDecisionReason: 'hooked' }));
    expect(await decide(hooks, 'ls', { source: 'user-shell' })).toEqual({ behavior: 'allow' });
    const allowing = await hooked(pre('allow'));
    expect((await decide(allowing, 'touch x', { mode: 'plan' })).behavior).toBe('deny');
  });

  it('a PermissionRequest hook answers for the person in -p: allow, or deny with its message', async () => {
    const allow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
    const yes = await hooked({}, allow);
    expect(await decide(yes, 'npm test')).toEqual({ behavior: 'allow' });
    const no = await hooked(
      {},
      {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'ask Bob' } },
      },
    );
    expect(await decide(no, 'npm test')).toEqual({ behavior: 'deny', message: 'ask Bob' });
  });
});
