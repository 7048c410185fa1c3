/**
 * The PermissionBroker of an ACP session: a call no rule or mode decided becomes `session/request_permission`
 * with allow_once / allow_always / reject_once / reject_always. "Always allow" is what the REPL's "yes, don't ask
 * again" is: remembered for the session (the decision point does that) and written as the same allow rule to the
 * project's .claude/settings.local.json. "Always reject" denies the same scope for the rest of this session without
 * asking (nothing is written). A cancelled question, a failed request or an unknown option denies.
 */
import type { AgentContext, PermissionOption } from '@agentclientprotocol/sdk';
import type { PermissionBroker, UserDecision } from '../driver/permission-broker.js';
import type { ToolCall } from '../tools/registry/define-tool.js';
import type { ApprovalRequest } from '../tools/registry/tool-context.js';
import type { ToolRegistry } from '../tools/registry/registry.js';
import { editDiffs, toolKind, toolLocations } from './tool-calls.js';

export interface AcpBrokerOptions {
  client: AgentContext;
  sessionId: () => string;
  projectRoot: string;
  registry: ToolRegistry;
  /** Writes an allow rule to the project's local settings; returns the file. Throws when it cannot. */
  saveRule: (rule: string) => string;
  /** One line for the editor's transcript (a rule saved, or not). */
  tell: (line: string) => void;
  /** An approved plan (ExitPlanMode) leaves plan mode, as the REPL's plan question does. */
  setMode: (mode: 'acceptEdits' | 'default') => void;
}

const EXIT_PLAN_MODE = 'ExitPlanMode';

/** The REPL's plan question: approve and auto-accept edits, approve and ask before each edit, or keep planning. */
const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'plan_accept_edits', name: 'Yes, and auto-accept edits', kind: 'allow_always' },
  { optionId: 'plan_default', name: 'Yes, and ask before each edit', kind: 'allow_once' },
  { optionId: 'reject_once', name: 'No, keep planning', kind: 'reject_once' },
];

function optionsFor(request: ApprovalRequest): PermissionOption[] {
  if (request.tool === EXIT_PLAN_MODE) return PLAN_OPTIONS;
  const always = request.remember;
  return [
    { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
    ...(always
      ? [{ optionId: 'allow_always', name: `Always allow ${always.label}`, kind: 'allow_always' as const }]
      : []),
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    ...(always
      ? [{ optionId: 'reject_always', name: `Always reject ${always.label}`, kind: 'reject_always' as const }]
      : []),
  ];
}

export function acpBroker(options: AcpBrokerOptions): PermissionBroker {
  const open = new Set<AbortController>();
  const rejected = new Set<string>();
  return {
    async ask(request: ApprovalRequest, call?: ToolCall): Promise<UserDecision> {
      const scope = request.remember?.rule;
      if (scope !== undefined && rejected.has(scope)) {
        return { approved: false, reason: `The user rejected ${scope} for this session.` };
      }
      const { projectRoot, registry } = options;
      const definition = registry.get(request.tool);
      const diffs = editDiffs(projectRoot, definition, request.input);
      const detail = request.detail?.trim() ?? '';
      const abort = new AbortController();
      open.add(abort);
      let optionId: string | undefined;
      try {
        const response = await options.client.request(
          'session/request_permission',
          {
            sessionId: options.sessionId(),
            toolCall: {
              toolCallId: call?.id ?? `perm_${Date.now().toString(36)}`,
              title: request.title,
              kind: toolKind(definition),
              status: 'pending',
              locations: toolLocations(projectRoot, definition, request.input),
              rawInput: request.input,
              content:
                diffs.length > 0
                  ? diffs
                  : detail === ''
                    ? []
                    : [{ type: 'content', content: { type: 'text', text: detail.slice(0, 20_000) } }],
            },
            options: optionsFor(request),
          },
          { cancellationSignal: abort.signal, stopWaitingOnCancel: true },
        );
        if (response.outcome.outcome === 'selected') optionId = response.outcome.optionId;
      } catch (error) {
        if (abort.signal.aborted) return { approved: false, reason: 'The question was cancelled.', endTurn: true };
        return { approved: false, reason: `The permission request failed: ${(error as Error).message}` };
      } finally {
        open.delete(abort);
      }
      if (optionId === 'allow_once') return { approved: true };
      if (request.tool === EXIT_PLAN_MODE && (optionId === 'plan_accept_edits' || optionId === 'plan_default')) {
        options.setMode(optionId === 'plan_accept_edits' ? 'acceptEdits' : 'default');
        return { approved: true };
      }
      if (optionId === 'allow_always' && scope !== undefined) {
        try {
          options.tell(`Saved ${scope} to ${options.saveRule(scope)}.`);
        } catch (error) {
          options.tell(`${scope} is allowed for this session only: ${(error as Error).message}`);
        }
        return { approved: true, remember: true, persist: true };
      }
      if (optionId === 'reject_always' && scope !== undefined) rejected.add(scope);
      if (optionId === undefined) return { approved: false, reason: 'The user cancelled.', endTurn: true };
      return { approved: false, reason: 'The user rejected this call.' };
    },
    cancel() {
      for (const abort of [...open]) abort.abort();
      open.clear();
    },
  };
}
