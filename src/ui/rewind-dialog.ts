/**
 * The REPL's rewind dialog (`/rewind`, `/undo`, Esc Esc on an empty prompt): the session's prompts newest first
 * with their time and changed files; choosing one offers "code and conversation", "conversation only" and "code
 * only", each with a preview of the files that would change (a file changed outside mca since is marked: going
 * ahead overwrites it, the person saw it). A conversation rewind reloads the session cut back to before that
 * prompt and puts the prompt's text back in the input box.
 */
import type { Checkpoint } from '../checkpoints/checkpoint-list.js';
import type { RewindOptions, RewindResult } from '../checkpoints/rewind.js';
import type { RestorePlan } from '../checkpoints/restore-plan.js';

/** What the REPL needs of the project's checkpoints (src/checkpoints/project-checkpoints.ts has it). */
export interface RewindPort {
  listCheckpoints(sessionId: string): Promise<Checkpoint[]>;
  rewind(sessionId: string, target: string, options: RewindOptions): Promise<RewindResult>;
  storeBytes(sessionId: string): Promise<number>;
}

export const REWIND_CHOICES = [
  { label: 'Restore code and conversation', code: true, conversation: true },
  { label: 'Restore conversation only', code: false, conversation: true },
  { label: 'Restore code only', code: true, conversation: false },
] as const;

export type RewindState =
  | { stage: 'list'; checkpoints: Checkpoint[] | null; selected: number }
  | {
      stage: 'choose';
      checkpoint: Checkpoint;
      selected: number;
      /** The files each code choice would change (loaded with a dry run). */
      preview: RestorePlan | null;
    };

/** Newest first, as the dialog lists them. */
export function newestFirst(checkpoints: readonly Checkpoint[]): Checkpoint[] {
  return [...checkpoints].reverse();
}

export function describeResult(result: RewindResult, choice: (typeof REWIND_CHOICES)[number]): string {
  const parts: string[] = [];
  if (choice.code) {
    const restored = result.applied?.restored.length ?? 0;
    parts.push(`restored ${restored} file${restored === 1 ? '' : 's'}`);
  }
  if (choice.conversation) parts.push('conversation cut back to before that prompt');
  const failed = result.applied?.failed ?? [];
  const blocked = [...result.plan.notRestorable.map((item) => item.path), ...failed.map((item) => item.path)];
  const undo = result.undoId
    ? ` Undo: /rewind and pick "(rewind to ${result.checkpoint.id})", or mca rewind ${result.undoId}.`
    : '';
  const notRestored = blocked.length > 0 ? ` Not restorable: ${blocked.join(', ')}.` : '';
  return `Rewound to ${result.checkpoint.id}: ${parts.join('; ')}.${notRestored}${undo}`;
}
