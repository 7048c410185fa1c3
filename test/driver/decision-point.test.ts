/**
 * The decision point's rules, asked the way the tools ask (a request, as the registry stamps it). `createApprover`
 * below wraps the decision point so each case reads as the person's answer: approved, or not with the reason.
 */
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../src/config/config.js';
import { createDecisionPoint } from '../../src/driver/decision-point.js';
import { PermissionPolicy, type PolicyDecision } from '../../src/permissions/policy.js';
import { parseRule, type RuleBehavior } from '../../src/permissions/rule.js';
import { createDefaultRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, runTool } from '../tools/helpers.js';
import type { CallSource, PermissionDecision } from '../../src/tools/registry/define-tool.js';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../src/tools/registry/tool-context.js';

function approvalOf(decision: PermissionDecision): ApprovalDecision {
  if (decision.behavior === 'deny') {
    return decision.message === undefined ? { approved: false } : { approved: false, reason: decision.message };
  }
  return {
    approved: true,
    ...(decision.remember === undefined ? {} : { remember: decision.remember }),
    ...(decision.persist === undefined ? {} : { persist: decision.persist }),
  };
}

/** The decision point with `ask` as the broker (none: nobody can answer, as in -p), asked for calls from `source`. */
function createApprover(options: {
  mode: PermissionMode;
  ask?: Approver;
  policy?: PermissionPolicy;
  source?: CallSource;
}) {
  const { ask } = options;
  const point = createDecisionPoint({
    mode: () => options.mode,
    policy: options.policy,
    broker: ask ? { ask, cancel: () => undefined } : undefined,
  });
  const approve = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    const call = { id: 'toolu_test', name: request.tool, input: request.input, source: options.source ?? 'model' };
    return approvalOf(await point.decide(call, request));
  };
  return Object.assign(approve, { allowForSession: point.allowForSession });
}

/** As the registry stamps it: the file tools ask for `edit`, Bash for `exec`. */
const request = (tool: string): ApprovalRequest => ({
  tool,
  title: `${tool}(x)`,
  input: {},
  kind: ['Write', 'Edit', 'MultiEdit'].includes(tool) ? 'edit' : 'exec',
});

function scriptedAsk(...answers: ApprovalDecision[]) {
  const asked: string[] = [];
  const ask = async (req: ApprovalRequest): Promise<ApprovalDecision> => {
    asked.push(req.tool);
    const answer = answers.shift();
    if (!answer) throw new Error('asked more often than scripted');
    return answer;
  };
  return { ask, asked };
}

describe('the decision point: modes and answers', () => {
  it('bypassPermissions allows everything without asking', async () => {
    const { ask, asked } = scriptedAsk();
    const approve = createApprover({ mode: 'bypassPermissions', ask });
    for (const tool of ['Bash', 'Write', 'Edit', 'MultiEdit'])
      expect(await approve(request(tool))).toEqual({ approved: true });
    expect(asked).toEqual([]);
  });

  it('acceptEdits allows Write, Edit and MultiEdit but asks for Bash', async () => {
    const { ask, asked } = scriptedAsk({ approved: false, reason: 'no shell' });
    const approve = createApprover({ mode: 'acceptEdits', ask });
    for (const tool of ['Write', 'Edit', 'MultiEdit']) expect((await approve(request(tool))).approved).toBe(true);
    expect(await approve(request('Bash'))).toEqual({ approved: false, reason: 'no shell' });
    expect(asked).toEqual(['Bash']);
  });

  it('default asks for every tool and passes the answer through', async () => {
    const { ask, asked } = scriptedAsk({ approved: true }, { approved: false, reason: 'wrong file' });
    const approve = createApprover({ mode: 'default', ask });
    expect(await approve(request('Edit'))).toEqual({ approved: true });
    expect(await approve(request('Edit'))).toEqual({ approved: false, reason: 'wrong file' });
    expect(asked).toEqual(['Edit', 'Edit']);
  });

  it("\"yes, don't ask again\" covers the Bash command's prefix, or the session's file edits, and says so", async () => {
    const seen: Array<ApprovalRequest['remember']> = [];
    const { ask, asked } = scriptedAsk(
      { approved: true, remember: true },
      { approved: true },
      { approved: true, remember: true },
      { approved: true, remember: true },
      { approved: true },
    );
    const approve = createApprover({
      mode: 'default',
      ask: async (req) => {
        seen.push(req.remember);
        return ask(req);
      },
    });
    const bash = (command: string): ApprovalRequest => ({
      tool: 'Bash',
      title: `Bash(${command})`,
      input: { command },
    });
    await approve(bash('npm test -- a.test.ts'));
    await approve(bash('npm test'));
    await approve(bash('npm publish'));
    await approve(bash('npm test && rm -rf x'));
    expect(asked).toEqual(['Bash', 'Bash', 'Bash']);
    expect(seen.slice(0, 3)).toEqual([
      { label: '`npm test` commands', rule: 'Bash(npm test:*)' },
      { label: '`npm publish` commands', rule: 'Bash(npm publish:*)' },
      undefined,
    ]);
    await approve({ tool: 'Write', title: 'Write(a.ts)', input: { path: 'a.ts' } });
    await approve({ tool: 'Edit', title: 'Edit(b.ts)', input: { path: 'b.ts' } });
    expect(asked).toEqual(['Bash', 'Bash', 'Bash', 'Write']);
    expect(seen[3]).toEqual({ label: 'file edits', rule: 'Edit' });
  });

  it('a remembered Bash prefix never covers what bash runs past a # inside a word or behind a wrapper', async () => {
    const { ask, asked } = scriptedAsk(
      { approved: true, remember: true },
      { approved: false },
      { approved: false },
      { approved: false },
    );
    const seen: Array<ApprovalRequest['remember']> = [];
    const approve = createApprover({
      mode: 'default',
      ask: async (req) => {
        seen.push(req.remember);
        return ask(req);
      },
    });
    const bash = (command: string): ApprovalRequest => ({
      tool: 'Bash',
      title: `Bash(${command})`,
      input: { command },
    });
    expect(await approve(bash('npm test x#'))).toEqual({ approved: true, remember: true });
    expect((await approve(bash('npm test x#; touch ../OUT'))).approved).toBe(false);
    expect((await approve(bash('npm test a#b\ntouch ../OUT'))).approved).toBe(false);
    expect((await approve(bash('env npm test'))).approved).toBe(false);
    expect(asked).toHaveLength(4);
    // Only the first offered a "don't ask again" scope; a wrapper would have made it a blanket allow.
    expect(seen).toEqual([{ label: '`npm test` commands', rule: 'Bash(npm test:*)' }, undefined, undefined, undefined]);
  });

  it('allowForSession allows a tool from then on', async () => {
    const { ask, asked } = scriptedAsk();
    const approve = createApprover({ mode: 'default', ask });
    approve.allowForSession('Write');
    expect((await approve(request('Write'))).approved).toBe(true);
    expect(asked).toEqual([]);
  });

  it('denies when nobody can answer, naming the flags that would allow it', async () => {
    const approve = createApprover({ mode: 'default' });
    const bash = await approve(request('Bash'));
    expect(bash.approved).toBe(false);
    if (!bash.approved) {
      expect(bash.reason).toContain('--permission-mode');
      expect(bash.reason).toContain('--dangerously-skip-permissions');
    }
    const edit = await approve(request('Edit'));
    if (!edit.approved) expect(edit.reason).toContain('--permission-mode acceptEdits');
    expect(edit.approved).toBe(false);
    const acceptEdits = createApprover({ mode: 'acceptEdits' });
    expect((await acceptEdits(request('Edit'))).approved).toBe(true);
    expect((await acceptEdits(request('Bash'))).approved).toBe(false);
  });

  it('turns a failing prompt into a denial', async () => {
    const approve = createApprover({ mode: 'default', ask: async () => Promise.reject(new Error('tty closed')) });
    expect(await approve(request('Bash'))).toEqual({
      approved: false,
      reason: 'the permission prompt failed: tty closed',
    });
  });

  it('always asks before a control-file write, even in acceptEdits or after "yes, for this session"', async () => {
    const control: ApprovalRequest = { tool: 'Write', title: 'Write(.mca/config.json)', input: {}, controlFile: true };
    const { ask, asked } = scriptedAsk({ approved: true, remember: true }, { approved: false }, { approved: true });
    const approve = createApprover({ mode: 'acceptEdits', ask });
    expect(await approve(control)).toEqual({ approved: true, remember: true });
    expect((await approve(control)).approved).toBe(false);
    expect((await approve(request('Write'))).approved).toBe(true);
    approve.allowForSession('Write');
    expect((await approve(control)).approved).toBe(true);
    expect(asked).toEqual(['Write', 'Write', 'Write']);
  });

  it('denies a control-file write when nobody can answer unless bypassPermissions', async () => {
    const control: ApprovalRequest = { tool: 'Edit', title: 'Edit(.mca/config.json)', input: {}, controlFile: true };
    for (const mode of ['default', 'acceptEdits'] as const) {
      const decision = await createApprover({ mode })(control);
      expect(decision.approved).toBe(false);
      if (!decision.approved) expect(decision.reason).toMatch(/control files.*bypassPermissions/);
    }
    expect(await createApprover({ mode: 'bypassPermissions' })(control)).toEqual({ approved: true });
  });
});

describe('the decision point: permission rules', () => {
  const rules = (entries: Array<[RuleBehavior, string]>) =>
    new PermissionPolicy(
      entries.map(([behavior, text]) => {
        const parsed = parseRule(text, behavior, 'settings.json');
        if (!parsed.ok) throw new Error(parsed.message);
        return parsed.rule;
      }),
      { projectRoot: '/project' },
    );
  const bash = (command: string): ApprovalRequest => ({ tool: 'Bash', title: `Bash(${command})`, input: { command } });

  it('a deny rule holds even in bypassPermissions and names itself', async () => {
    const approve = createApprover({ mode: 'bypassPermissions', policy: rules([['deny', 'Bash(git push:*)']]) });
    const decision = await approve(bash('git push origin'));
    expect(decision).toEqual({
      approved: false,
      reason: 'Bash(git push origin) is denied by the rule Bash(git push:*) (deny rule from settings.json)',
    });
    expect(await approve(bash('git status'))).toEqual({ approved: true });
  });

  it('in plan mode a read-only tool an ask rule names is asked about, while writes stay refused', async () => {
    const { ask, asked } = scriptedAsk({ approved: true });
    const approve = createApprover({ mode: 'plan', ask, policy: rules([['ask', 'Read(./notes.md)']]) });
    const read: ApprovalRequest = { tool: 'Read', title: 'Read(notes.md)', input: { path: 'notes.md' }, kind: 'read' };
    expect(await approve(read)).toEqual({ approved: true });
    expect(asked).toEqual(['Read']);
    const write = await approve(request('Write'));
    expect(write.approved).toBe(false);
    expect(asked).toEqual(['Read']);
  });

  it('an ask rule asks in acceptEdits and after "yes for this session"; an allow rule needs nobody', async () => {
    const { ask, asked } = scriptedAsk({ approved: true }, { approved: true });
    const approve = createApprover({
      mode: 'acceptEdits',
      ask,
      policy: rules([
        ['ask', 'Edit(./package.json)'],
        ['allow', 'Bash(npm test:*)'],
      ]),
    });
    approve.allowForSession('Edit');
    const edit: ApprovalRequest = { tool: 'Edit', title: 'Edit(package.json)', input: { path: 'package.json' } };
    await approve(edit);
    await approve(edit);
    expect(asked).toEqual(['Edit', 'Edit']);
    expect(
      await createApprover({ mode: 'default', policy: rules([['allow', 'Bash(npm test:*)']]) })(bash('npm test')),
    ).toEqual({
      approved: true,
    });
  });
});

/** A policy whose matchers fail to load (a damaged install): its rules cannot be checked. */
class UncheckablePolicy extends PermissionPolicy {
  override async evaluate(): Promise<PolicyDecision> {
    throw new Error('Cannot find module rule-match.js');
  }
}

describe('rules that cannot be checked', () => {
  const policy = new UncheckablePolicy([], { projectRoot: '/' });

  it('refuse a read-only call with the reason, instead of letting it run unchecked', async () => {
    const { ask, asked } = scriptedAsk();
    const broker = { ask, cancel: () => undefined };
    const decide = createDecisionPoint({ mode: () => 'bypassPermissions', policy, broker }).decide;
    const ctx = { ...makeContext('/'), gate: { decide } };
    const refused = await runTool(createDefaultRegistry(), 'Read', { path: '.env' }, ctx);
    expect(refused?.error?.code).toBe('PERMISSION_DENIED');
    expect(refused?.error?.message).toContain('the permission rules could not be checked (Cannot find module');
    expect(asked).toEqual([]);
  });

  it('never approve a change, even in bypassPermissions: the call is denied with the reason', async () => {
    const approve = createApprover({ mode: 'bypassPermissions', policy });
    expect(await approve(request('Bash'))).toEqual({
      approved: false,
      reason: 'the permission rules could not be checked (Cannot find module rule-match.js)',
    });
    const ctx = {
      ...makeContext('/'),
      gate: { decide: createDecisionPoint({ mode: () => 'bypassPermissions', policy }).decide },
    };
    const denied = await runTool(createDefaultRegistry(), 'Bash', { command: 'true' }, ctx);
    expect(denied?.error?.code).toBe('PERMISSION_DENIED');
    expect(denied?.error?.message).toContain('Cannot find module');
  });
});

describe('the decision point: who caused the call', () => {
  const rules = (entries: Array<[RuleBehavior, string]>) =>
    new PermissionPolicy(
      entries.map(([behavior, text]) => {
        const parsed = parseRule(text, behavior, 'settings.json');
        if (!parsed.ok) throw new Error(parsed.message);
        return parsed.rule;
      }),
      { projectRoot: '/project' },
    );
  const touch: ApprovalRequest = { tool: 'Bash', title: 'Bash(touch x)', input: { command: 'touch x' }, kind: 'exec' };
  const call = (source: CallSource) => ({ id: 'toolu_1', name: 'Bash', input: touch.input, source });

  it('runs a `!` line the user typed without a question, in any mode, unless a deny rule refuses it', async () => {
    for (const mode of ['default', 'plan'] as const) {
      expect(await createApprover({ mode, source: 'user-shell' })(touch)).toEqual({ approved: true });
    }
    const denied = await createApprover({
      mode: 'default',
      source: 'user-shell',
      policy: rules([['deny', 'Bash(touch:*)']]),
    })(touch);
    expect(denied).toEqual({
      approved: false,
      reason: 'Bash(touch x) is denied by the rule Bash(touch:*) (deny rule from settings.json)',
    });
  });

  it("judges a custom command's `!` line like the model's call, with the command's own allow rules", async () => {
    let mode: PermissionMode = 'default';
    const point = createDecisionPoint({ mode: () => mode });
    const parsed = parseRule('Bash(touch:*)', 'allow', 'allowed-tools of probe.md');
    if (!parsed.ok) throw new Error(parsed.message);
    const commandDecide = point.withAllowRules([parsed.rule]);
    expect(await commandDecide(call('command'), touch)).toEqual({ behavior: 'allow' });
    expect((await point.decide(call('model'), touch)).behavior).toBe('deny');
    mode = 'plan';
    const refused = await commandDecide(call('command'), touch);
    expect(refused.behavior === 'deny' && refused.message).toMatch(/^plan mode is on/);
  });

  it('an ask rule asks even in bypassPermissions (ask rules come before the mode) and is denied with nobody to ask', async () => {
    const policy = rules([['ask', 'Bash(touch:*)']]);
    const { ask, asked } = scriptedAsk({ approved: true });
    expect(await createApprover({ mode: 'bypassPermissions', policy, ask })(touch)).toEqual({ approved: true });
    expect(asked).toEqual(['Bash']);
    const alone = await createApprover({ mode: 'bypassPermissions', policy })(touch);
    expect(alone.approved).toBe(false);
    if (!alone.approved) expect(alone.reason).toContain('must be confirmed by the user');
  });
});
