/**
 * What a front end (the Ink REPL, `-p`) drives. The CLI composes one from config, provider, tools and
 * session store; front ends never construct core objects themselves.
 */
import type { PermissionMode } from '../config/config.js';
import type { MemoryEntry } from '../context/memory-files.js';
import type { Message } from '../context/message.js';
import type { TodoItem } from '../tools/registry/tool-data.js';
import type { AgentEvent } from './events.js';
import type { CallGate } from '../tools/registry/tool-context.js';
import type { SessionInfo } from '../store/session-info.js';
import type { ImagePart } from '../text/image-part.js';

export type ContextPartId = 'l1' | 'l2' | 'l3' | 'summaries' | 'input' | 'scratchpad' | 'todos';

/** For `/context`: the estimated size of each prompt layer, and what the last real call used. */
export interface ContextReport {
  contextWindow: number;
  compressionThreshold: number;
  parts: Array<{ id: ContextPartId; label: string; tokens: number }>;
  /** Tokens of the last model call (all four usage counters); 0 before the first call. */
  lastUsage: number;
  rounds: number;
  summaries: number;
  /** The model profile that set the context settings config left unset, and the ones config set instead. */
  profile?: { name: string; overridden: string[] };
}

export type { SessionInfo };

export interface AgentController {
  readonly sessionId: string;
  readonly model: string;
  readonly projectRoot: string;
  /**
   * Runs one turn. Ends with exactly one `turn_end`. Aborting the signal closes the round as interrupted. `images`
   * are attached to the input (a pasted image, an ACP prompt's image; see text/image-part.ts imagePartFromBase64).
   */
  /**
   * `mentionText`: the part of `input` that is the user's own words, the only text `@` mentions are taken from
   * (not resource text, hook context or editor content added around it). Absent: all of `input`.
   */
  run(
    input: string,
    options: { signal: AbortSignal; images?: readonly ImagePart[]; mentionText?: string },
  ): AsyncGenerator<AgentEvent>;
  /** Manual compaction (`/compact [focus]`); yields compaction events. */
  compact(options: { focus?: string; signal: AbortSignal }): AsyncGenerator<AgentEvent>;
  contextReport(): ContextReport;
  todos(): readonly TodoItem[];
  /** The memory files in L2 (as of the last build) with their sizes, for /memory. */
  memoryFiles(): readonly MemoryEntry[];
  history(): readonly Message[];
  setModel(model: string): void;
  /** The permission mode now (default, acceptEdits, plan, bypassPermissions). */
  readonly permissionMode: PermissionMode;
  /** Shift+Tab in the REPL, or an approved plan. */
  setPermissionMode(mode: PermissionMode): void;
  /**
   * Installs the decision point every tool call passes (the session driver's). A denial with `interrupt` ends the
   * round after that step (reason `interrupted`, error code USER_DECLINED).
   */
  setDecisionPoint(gate: CallGate): void;
}

/**
 * What the session driver installs on a controller: the decision point every call passes, the step after an allowed
 * call ran, and the rules' path screen (the gate travels in each call's run context: src/tools/registry/tool-context.ts).
 */
export type { CallGate } from '../tools/registry/tool-context.js';

/** Session-level operations the REPL's slash commands need. */
export interface SessionManager {
  current(): AgentController;
  /** `/clear`: start a fresh session in the same project. */
  newSession(): Promise<AgentController>;
  /** `/resume`: past sessions of this project, newest first. */
  listSessions(): Promise<SessionInfo[]>;
  resume(sessionId: string): Promise<AgentController>;
}
