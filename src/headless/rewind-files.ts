/**
 * The SDK's `rewind_files` control request (`user_message_id`, `dry_run`) over the checkpoint store: the host's user
 * message uuid (the `uuid` it set on the message, or the one mca echoed with `--replay-user-messages`) names the
 * prompt it started, whose checkpoint is the one taken when that prompt began. The answer has Claude Code's
 * RewindFilesResult shape: `canRewind`, `error`, `filesChanged` (absolute paths), `insertions` and `deletions`
 * (lines the rewind adds and removes, counted before anything is written). A file changed outside mca since mca
 * last changed it makes the rewind refuse (canRewind false) rather than overwrite the person's work.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileState } from '../checkpoints/journal.js';
import type { ProjectCheckpoints } from '../checkpoints/project-checkpoints.js';
import type { RewindResult } from '../checkpoints/rewind.js';

/** Files larger than this are restored but not counted in insertions/deletions. */
const COUNT_MAX_BYTES = 2 * 1024 * 1024;
/** The user messages remembered (uuid → when its prompt began); the oldest are forgotten past this. */
const MAX_REMEMBERED = 10_000;

export interface RewindFilesAnswer {
  canRewind: boolean;
  error?: string;
  filesChanged?: string[];
  insertions?: number;
  deletions?: number;
}

/** Which prompt each host user message began: uuid → the session and the time its turn started. */
export class UserMessageCheckpoints {
  private readonly started = new Map<string, { sessionId: string; at: string }>();

  began(uuid: string, sessionId: string): void {
    if (this.started.size >= MAX_REMEMBERED) {
      const oldest = this.started.keys().next().value;
      if (oldest !== undefined) this.started.delete(oldest);
    }
    this.started.set(uuid, { sessionId, at: new Date().toISOString() });
  }

  get(uuid: string): { sessionId: string; at: string } | undefined {
    return this.started.get(uuid);
  }
}

async function lines(path: string | undefined): Promise<string[] | undefined> {
  if (path === undefined) return [];
  try {
    if ((await stat(path)).size > COUNT_MAX_BYTES) return undefined;
    return textLines(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function textLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/** Lines in `to` not matched in `from` (insertions) and the reverse (deletions), as multisets. */
function lineDelta(from: readonly string[], to: readonly string[]): { insertions: number; deletions: number } {
  const counts = new Map<string, number>();
  for (const line of from) counts.set(line, (counts.get(line) ?? 0) + 1);
  let insertions = 0;
  for (const line of to) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else insertions += 1;
  }
  const deletions = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return { insertions, deletions };
}

async function delta(
  plan: RewindResult['plan'],
  projectRoot: string,
  blobBytes: (hash: string) => Promise<Buffer | undefined>,
): Promise<{ insertions: number; deletions: number }> {
  let insertions = 0;
  let deletions = 0;
  const pathOf = (state: FileState, disk: string): string | undefined => (state.kind === 'file' ? disk : undefined);
  for (const item of plan.items) {
    const now = await lines(pathOf(item.current, join(projectRoot, item.path)));
    // A stored copy may live in a pack file (checkpoints/blob-packs.ts): read through the store, not by path.
    const stored = item.target.kind === 'file' ? await blobBytes(item.target.hash) : Buffer.alloc(0);
    const then = stored && stored.length <= COUNT_MAX_BYTES ? textLines(stored.toString('utf8')) : undefined;
    if (!now || !then) continue;
    const counted = lineDelta(now, then);
    insertions += counted.insertions;
    deletions += counted.deletions;
  }
  return { insertions, deletions };
}

export async function rewindFiles(
  checkpoints: ProjectCheckpoints,
  remembered: UserMessageCheckpoints,
  request: { user_message_id?: unknown; dry_run?: unknown },
): Promise<RewindFilesAnswer> {
  const uuid = typeof request.user_message_id === 'string' ? request.user_message_id : '';
  const began = remembered.get(uuid);
  if (!began)
    return { canRewind: false, error: `no user message ${JSON.stringify(uuid.slice(0, 100))} in this session` };
  if (!checkpoints.enabled) return { canRewind: false, error: 'checkpoints are turned off (MCA_CHECKPOINTS)' };
  const list = await checkpoints.listCheckpoints(began.sessionId);
  const checkpoint = list.find((entry) => entry.kind === 'prompt' && entry.ts >= began.at);
  if (!checkpoint) return { canRewind: false, error: 'that message has no checkpoint (its turn never started)' };
  const store = await checkpoints.session(began.sessionId);
  const preview = await checkpoints.rewindFiles(began.sessionId, checkpoint.id, { dryRun: true });
  const filesChanged = preview.plan.items.map((item) => join(checkpoints.projectRoot, item.path));
  if (preview.refused === 'conflicts') {
    const changed = preview.plan.items.filter((item) => item.conflict).map((item) => item.path);
    return {
      canRewind: false,
      error: `files changed outside mca since: ${changed.join(', ')}`,
      filesChanged,
    };
  }
  const counted = await delta(preview.plan, checkpoints.projectRoot, (hash) => store.blobs.get(hash));
  const answer = { canRewind: true, filesChanged, ...counted };
  if (request.dry_run === true) return answer;
  const done = await checkpoints.rewindFiles(began.sessionId, checkpoint.id);
  if (done.applied && done.applied.failed.length > 0) {
    const failed = done.applied.failed.map((entry) => `${entry.path} (${entry.reason})`).join(', ');
    return { ...answer, canRewind: done.applied.restored.length > 0, error: `not restored: ${failed}` };
  }
  return answer;
}
