/**
 * Rewinding a session to a checkpoint: its files (code), its conversation, or both. A rewind first journals a
 * checkpoint of its own (the state of every file it will change, and the session file before a cut), so it can
 * be undone like a prompt. A file changed outside mca since mca last changed it is a conflict: nothing is
 * written unless `force`. Git's HEAD, index and refs are never touched (nothing under `.git` is ever written).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CHECKPOINT_ID, listCheckpoints, type Checkpoint } from './checkpoint-list.js';
import type { JournalRecord } from './journal.js';
import { applyRestore, type Applied } from './restore-apply.js';
import { planRestore, type RestorePlan } from './restore-plan.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import { readSessionPrompts, type SessionPrompt } from './session-prompts.js';
import { McaError } from '../errors/mca-error.js';

export class CheckpointError extends McaError {
  constructor(
    readonly code: 'CHECKPOINT_NOT_FOUND' | 'CHECKPOINT_CONFLICT' | 'CHECKPOINT_UNAVAILABLE',
    message: string,
  ) {
    super(message);
    this.name = 'CheckpointError';
  }
}

/** How the conversation is cut or put back (the session store, under the session's lock). */
export interface SessionPort {
  /** The session file's path. */
  readonly path: string;
  /** Cuts the session file back to before `prompt`. */
  cutBefore(prompt: SessionPrompt): Promise<void>;
  /** Replaces the session file's content (undoing an earlier cut). */
  replace(content: Buffer): Promise<void>;
}

export interface RewindOptions {
  code: boolean;
  conversation: boolean;
  force?: boolean;
  dryRun?: boolean;
}

export interface RewindResult {
  checkpoint: Checkpoint;
  plan: RestorePlan;
  /** Absent for a dry run or a refusal. */
  applied?: Applied;
  /** The checkpoint the rewind made of its own (undo it with this id). */
  undoId?: string;
  refused?: 'conflicts';
  /** Conversation rewinds of a prompt: its text (a front puts it back in the input box). */
  promptText?: string;
}

export async function sessionCheckpoints(store: SessionCheckpoints, sessionPath: string): Promise<Checkpoint[]> {
  await store.open();
  const [prompts, records] = await Promise.all([readSessionPrompts(sessionPath), store.journal.read()]);
  return listCheckpoints(prompts, records);
}

export async function rewind(
  store: SessionCheckpoints,
  session: SessionPort,
  target: string,
  options: RewindOptions,
  maxBytes: number,
): Promise<RewindResult> {
  if (!CHECKPOINT_ID.test(target)) {
    throw new CheckpointError(
      'CHECKPOINT_NOT_FOUND',
      `"${target}" is not a checkpoint id (8 hex characters; see mca rewind --list)`,
    );
  }
  await store.open();
  const [prompts, records] = await Promise.all([readSessionPrompts(session.path), store.journal.read()]);
  const checkpoint = listCheckpoints(prompts, records).find((entry) => entry.id === target);
  if (!checkpoint)
    throw new CheckpointError(
      'CHECKPOINT_NOT_FOUND',
      `no checkpoint ${target} in this session (see mca rewind --list)`,
    );
  const roots = store.restoreRoots(records);
  const plan = options.code
    ? await planRestore(store.projectRoot, roots, checkpoint.ts, records, store.blobs, maxBytes)
    : { items: [], notRestorable: [], untracked: [] };
  const result: RewindResult = {
    checkpoint,
    plan,
    ...(options.conversation && checkpoint.kind === 'prompt' ? { promptText: checkpoint.text } : {}),
  };
  if (plan.items.some((item) => item.conflict) && !options.force) return { ...result, refused: 'conflicts' };
  if (options.dryRun) return result;
  const undoId = randomBytes(4).toString('hex');
  const ts = new Date().toISOString();
  const conversation =
    options.conversation && (checkpoint.prompt !== undefined || checkpoint.sessionBlob !== undefined);
  const sessionBlob = conversation ? await store.blobs.put(await readFile(session.path)) : undefined;
  const undo: JournalRecord[] = [
    {
      t: 'rewind',
      ts,
      id: undoId,
      target,
      ...(sessionBlob ? { session: sessionBlob } : {}),
      ...(conversation && checkpoint.prompt ? { cutFrom: checkpoint.ts } : {}),
    },
    ...plan.items.map((item): JournalRecord => ({
      t: 'change',
      ts,
      path: item.path,
      before: item.current,
      tool: 'rewind',
    })),
  ];
  await store.journal.append(...undo);
  const applied = await applyRestore(store.projectRoot, roots, plan.items, store.blobs);
  await store.journal.append(
    ...plan.items
      .filter((item) => applied.restored.includes(item.path))
      .map((item): JournalRecord => ({
        t: 'after',
        ts: new Date().toISOString(),
        path: item.path,
        after: item.target,
      })),
  );
  if (conversation) {
    if (checkpoint.prompt) await session.cutBefore(checkpoint.prompt);
    else if (checkpoint.sessionBlob) {
      const bytes = await store.blobs.get(checkpoint.sessionBlob);
      if (!bytes)
        throw new CheckpointError('CHECKPOINT_UNAVAILABLE', 'the stored session file of that rewind is missing');
      await session.replace(bytes);
    }
  }
  return { ...result, applied, undoId };
}
