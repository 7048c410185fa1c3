import type { PathScreen } from '../permissions/path-screen.js';
import type { ToolEnvelope } from './envelope.js';
import type { FileStateRecord } from './file-state.js';
import type { TodoStore } from './todo-store.js';
import type { ToolMemory } from './tool-memory.js';

/** What a tool asks the user (or the permission mode) before it changes something. */
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
  /** Stamped by the registry from the tool's definition: what kind of change is asked for. */
  kind?: 'edit' | 'exec' | 'plan' | 'read';
  /**
   * Set by the approver when it asks: what "yes, don't ask again" would cover (the Bash command's prefix, or the
   * session's file edits). Absent: that option is not offered.
   */
  remember?: { label: string; rule: string };
}

export type ApprovalDecision =
  | {
      approved: true;
      /** also allow what `request.remember` covers for the rest of the session */
      remember?: boolean;
      /** and write that rule to the project's .mca/settings.local.json */
      persist?: boolean;
    }
  | { approved: false; /** passed to the model so it can adapt */ reason?: string };

export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision>;

/** Everything a tool may touch. Tools get nothing else: no globals, no process.cwd(). */
export interface ToolContext {
  /** Absolute, symlink-resolved project root. Every path a tool touches resolves inside it. */
  projectRoot: string;
  signal: AbortSignal;
  fileState: FileStateRecord;
  todos: TodoStore;
  approve: Approver;
  /** The session's stored full tool results (Recall reads them); absent when the session keeps none. */
  toolMemory?: ToolMemory;
  /**
   * The permission rules' say on a read-only tool (which never calls `approve` itself): a deny rule refuses it, an
   * ask rule asks. Returns the PERMISSION_DENIED envelope, or undefined to run. Absent: read-only tools just run.
   */
  screenReadOnly?: (tool: string, input: unknown) => Promise<ToolEnvelope | undefined>;
  /**
   * The deny/ask rules on paths for a tool, applied to every file a walk (Grep, Glob, LS) opens or lists beyond
   * the path its input names. Absent: no rule withholds anything.
   */
  pathScreen?: (tool: string) => PathScreen | undefined;
}
