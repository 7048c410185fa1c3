import type { EnvironmentView } from '../../config/child-environment.js';
import type { PathScreen } from '../../permissions/path-screen.js';
import type { ToolEnvelope } from './envelope.js';
import type { BashBox, SandboxVerdict } from '../processes/bash-box.js';
import type { CallSource } from './call-source.js';
import type { CommandHost } from '../processes/command-host.js';
import type { FileAccess } from '../files/file-access.js';
import type { FileStateRecord } from '../files/file-state.js';
import type { TodoStore } from '../planning/todo-store.js';
import type { ToolMemory } from '../memory/tool-memory.js';

/**
 * What a tool would ask the user (or the permission mode) before it changes something. The tool's definition
 * computes it before anything runs (`prepare`); the registry hands it to the session's decision point.
 */
export interface ApprovalRequest {
  tool: string;
  /** One line, e.g. `Bash(npm test)` or `Edit(src/a.ts)`. */
  title: string;
  /** Optional body to show: the command, or a unified diff of the proposed change. */
  detail?: string;
  input: unknown;
  /**
   * The change targets one of mca's own control files (`.mca/**`, settings, hooks): such a write could widen
   * what mca may do, so it is always asked (even in acceptEdits or after "yes, for this session") and denied
   * when nobody can answer, unless the mode is bypassPermissions.
   */
  controlFile?: boolean;
  /**
   * Bash under the sandbox (bash-box.ts): `auto`, it runs inside the box and may run without a question
   * (autoAllowBashIfSandboxed; deny and ask rules and hooks still decide first); `ask`, it asks to run outside the
   * box and is always asked; `refuse`, running outside is not allowed. Absent: the normal decision.
   */
  sandbox?: SandboxVerdict;
  /** Stamped by the registry from the tool's definition: what kind of change is asked for. */
  kind?: 'edit' | 'exec' | 'plan' | 'read';
  /**
   * Set by the approver when it asks: what "yes, don't ask again" would cover (the Bash command's prefix, or the
   * session's file edits). Absent: that option is not offered.
   */
  remember?: { label: string; rule: string };
  /** Set when "yes, don't ask again" is not offered because a rule or hook asks every time: which one. */
  askedBy?: string;
}

export type ApprovalDecision =
  | {
      approved: true;
      /** also allow what `request.remember` covers for the rest of the session */
      remember?: boolean;
      /** and write that rule to the project's .claude/settings.local.json */
      persist?: boolean;
    }
  | { approved: false; /** passed to the model so it can adapt */ reason?: string };

export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision>;

export type { CallSource } from './call-source.js';
export type { SandboxVerdict } from '../processes/bash-box.js';

/** The session's side of a tool context: the same for every call of a step. */
export interface ToolEnvironment {
  /** Absolute, symlink-resolved project root. Every path a tool touches resolves inside it. */
  projectRoot: string;
  /**
   * The session's added directories (`--add-dir`, `/add-dir`; real paths), snapshotted for the step: paths in
   * them pass the guard with the project root's rules (workspace.ts). Absent or empty: the project only.
   */
  extraRoots?: readonly string[];
  signal: AbortSignal;
  fileState: FileStateRecord;
  todos: TodoStore;
  /** The session's stored full tool results (Recall reads them); absent when the session keeps none. */
  toolMemory?: ToolMemory;
  /**
   * The deny/ask rules on paths for a tool, applied to every file a walk (Grep, Glob, LS) opens or lists beyond
   * the path its input names. Absent: no rule withholds anything.
   */
  pathScreen?: (tool: string) => PathScreen | undefined;
  /** Where Read and the edit tools get and put a file's text (file-access.ts); absent: the disk. */
  files?: FileAccess;
  /** Where the model's Bash commands run (command-host.ts); absent: Bash spawns them. */
  commands?: CommandHost;
  /**
   * The runtime's environment (src/config/child-environment.ts): what a tool reads a variable from and what the
   * processes it starts get, never process.env. Absent (unit tests): process.env with the session's overlay.
   */
  env?: EnvironmentView;
  /** The sandbox Bash runs commands in (bash-box.ts); absent: no sandbox configured. */
  box?: BashBox;
}

/** One tool call from parse to result. `id` is the native tool_use id or a generated `toolu_…` (text protocol). */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  readonly source: CallSource;
}

/**
 * What the decision point answers. `deny.message` reaches the model inside the PERMISSION_DENIED envelope;
 * `deny.interrupt`: the person declined and stopped the turn (Esc / "No" at the REPL's prompt), so the loop ends
 * the round after this step.
 */
export type PermissionDecision =
  | { behavior: 'allow'; updatedInput?: unknown; remember?: boolean; persist?: boolean }
  | { behavior: 'deny'; message?: string; interrupt?: boolean };

/**
 * The one pre-execution decision point. The registry calls it for EVERY call after input validation and before
 * execution, read-only tools included (`request` undefined then: deny/ask rules still apply). `request` is what
 * the tool would ask, computed by its definition before anything runs; a call that fails anyway never gets here.
 */
export type DecideFn = (call: ToolCall, request: ApprovalRequest | undefined) => Promise<PermissionDecision>;

/** The step after an allowed call ran (PostToolUse hooks): its result for the model. */
export type AfterRunFn = (call: ToolCall, envelope: ToolEnvelope) => Promise<ToolEnvelope>;

/**
 * The gate every call passes, carried in the call's run context from the session down (never beside it): the
 * decision point, the step after an allowed call ran, and how deeply nested the calls are. A subagent's calls get
 * the session's gate one level deeper (src/subagents/subagent-tools.ts), so they are judged where the session's are.
 */
export interface CallGate {
  decide: DecideFn;
  /** Called once an allowed call ran, with the input it ran with; absent: the result as it is. */
  afterRun?: AfterRunFn | undefined;
  /** 0 (or absent): the session's own calls; 1: a subagent's; 2: a subagent's subagent's. */
  depth?: number | undefined;
  /** The rules' path screen for the files a walk (Grep, Glob, LS) lists beyond its input's path. */
  pathScreen?: ((tool: string) => PathScreen | undefined) | undefined;
}

/**
 * Everything a tool may touch. Tools get nothing else: no globals, no process.cwd(). A tool never asks for
 * permission itself: its definition says what it would ask, and the registry asks before `execute`.
 */
export interface ToolContext extends ToolEnvironment {
  /** The call's id: the native tool_use id, or one generated when the reply was parsed (text protocol). */
  callId: string;
  /** Who caused the call. */
  source: CallSource;
  /**
   * The gate the call itself passed (set by the registry), for a tool that makes calls of its own: the Agent tool's
   * nested session has its calls judged there. A tool never uses it to ask about its own work (that is `prepare`'s
   * request). Absent in a context the registry did not make.
   */
  gate?: CallGate;
}
