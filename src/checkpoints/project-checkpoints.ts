/**
 * Checkpoints of one project's sessions: the step the tool registry runs before a call (for the session open
 * now), and the small API every front uses: `listCheckpoints`, `rewindFiles` (the SDK's `rewind_files` control
 * request, ACP), `rewind` (code and/or conversation: `mca rewind`, `/rewind`), `storeBytes` (`/status`).
 */
import type { Message } from '../context/message.js';
import type { ToolCall, ToolDefinition } from '../tools/registry/define-tool.js';
import type { Checkpoint } from './checkpoint-list.js';
import { limitsFromEnv, type StoreLimits } from './limits.js';
import type * as RewindModule from './rewind.js';
import type { RewindOptions, RewindResult, SessionPort } from './rewind.js';
import type * as SessionCheckpointsModule from './session-checkpoints.js';
import type { AfterRun, SessionCheckpoints } from './session-checkpoints.js';
import type { SessionPrompt } from './session-prompts.js';

/**
 * The store's code (the scan, the blob store, rewind: about 40 kB) loads on the first call that needs a checkpoint,
 * so a session that never runs a file-changing tool (an `mca -p` question) never loads it.
 */
type StoreCode = [typeof SessionCheckpointsModule, typeof RewindModule];
let storeCode: Promise<StoreCode> | undefined;
function loadStoreCode(): Promise<StoreCode> {
  return (storeCode ??= Promise.all([import('./session-checkpoints.js'), import('./rewind.js')]));
}

function writesFiles(call: ToolCall, tool: ToolDefinition): boolean {
  return (tool.locations?.(call.input as Record<string, unknown>, {}) ?? []).some((touch) => touch.kind !== 'read');
}

/** What the checkpoints need of the session store (src/store/session-store.ts has it). */
export interface SessionFiles {
  readonly dir: string;
  pathOf(sessionId: string): string;
  cut(sessionId: string, offset: number, snapshot?: Message[]): Promise<void>;
  replace(sessionId: string, content: Buffer): Promise<void>;
}

/** errno codes that mean MCA_HOME's file system takes no more writes. */
const DISK_REFUSED = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

export class ProjectCheckpoints {
  private readonly stores = new Map<string, SessionCheckpoints>();

  constructor(
    private readonly sessions: SessionFiles,
    readonly projectRoot: string,
    private readonly limits: StoreLimits = limitsFromEnv(),
    /** The key values mca holds: a file holding one is not copied into the store (listed as not restorable). */
    private readonly secrets: readonly string[] = [],
    /** The session's added directories now (`--add-dir`, `/add-dir`, settings); their files are checkpointed too. */
    private readonly extraRoots: () => readonly string[] = () => [],
  ) {}

  get enabled(): boolean {
    return this.limits.enabled;
  }

  /** The store of one session (created on first use; pruned when it first opens in this process). */
  async session(sessionId: string): Promise<SessionCheckpoints> {
    const [{ checkpointDir, SessionCheckpoints }] = await loadStoreCode();
    let store = this.stores.get(sessionId);
    if (!store) {
      store = new SessionCheckpoints(
        checkpointDir(this.sessions.dir, sessionId),
        this.projectRoot,
        this.limits,
        { sessionPath: this.sessions.pathOf(sessionId), limits: this.limits.prune },
        this.secrets,
        this.extraRoots,
      );
      this.stores.set(sessionId, store);
    }
    return store;
  }

  /** The registry's step before `call` runs in session `sessionId`; undefined when there is nothing to guard. */
  async beforeRun(
    sessionId: string,
    call: ToolCall,
    tool: ToolDefinition,
    signal: AbortSignal,
  ): Promise<AfterRun | undefined> {
    if (!this.limits.enabled) return undefined;
    try {
      // A call that names no file it changes and runs no command needs no checkpoint (SessionCheckpoints.beforeRun
      // returns undefined for it too), nor the store's code.
      if (tool.permission !== 'exec' && !writesFiles(call, tool)) return undefined;
      return await (await this.session(sessionId)).beforeRun(call, tool, signal);
    } catch (error) {
      // MCA_HOME's disk is full or read-only: the session file cannot be written either, and that failure ends the
      // turn with one clear line. Refusing the call here instead would let the model go on answering a turn whose
      // record is being lost. Any other store failure refuses the call (the registry says why).
      if (DISK_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
      throw error;
    }
  }

  /** The session's checkpoints, oldest first. */
  async listCheckpoints(sessionId: string): Promise<Checkpoint[]> {
    const [, { sessionCheckpoints }] = await loadStoreCode();
    return await sessionCheckpoints(await this.session(sessionId), this.sessions.pathOf(sessionId));
  }

  async rewind(sessionId: string, target: string, options: RewindOptions): Promise<RewindResult> {
    const [, { rewind }] = await loadStoreCode();
    const store = await this.session(sessionId);
    return await rewind(store, this.port(sessionId), target, options, this.limits.maxEditFileBytes);
  }

  /**
   * Files only, for protocol fronts: `target` is a checkpoint id, or the time (ISO) of the user message the front
   * knows (the SDK's `user_message_id` maps to the user message it sent).
   */
  async rewindFiles(
    sessionId: string,
    target: string,
    options: { dryRun?: boolean; force?: boolean } = {},
  ): Promise<RewindResult> {
    let id = target;
    if (!/^[0-9a-f]{8}$/.test(target)) {
      const match = (await this.listCheckpoints(sessionId)).find((checkpoint) => checkpoint.ts === target);
      const [, { CheckpointError }] = await loadStoreCode();
      if (!match) throw new CheckpointError('CHECKPOINT_NOT_FOUND', `no checkpoint for ${JSON.stringify(target)}`);
      id = match.id;
    }
    return await this.rewind(sessionId, id, { code: true, conversation: false, ...options });
  }

  /** Bytes the session's store holds (blobs). */
  async storeBytes(sessionId: string): Promise<number> {
    return await (await this.session(sessionId)).blobs.size();
  }

  private port(sessionId: string): SessionPort {
    const { sessions } = this;
    return {
      path: sessions.pathOf(sessionId),
      cutBefore: (prompt: SessionPrompt) => sessions.cut(sessionId, prompt.offset, prompt.snapshotPrefix),
      replace: (content: Buffer) => sessions.replace(sessionId, content),
    };
  }
}
