/**
 * The scripted task the fake model plays (bench/peers/task.json, or any file given with --task): turns of a user
 * prompt and abstract steps. A step is data, not code: `{read}`, `{grep, in}`, `{edit, old, new}`, `{bash}` or
 * `{answer}`, each with an optional `say` (the text the model writes before its call). tool-map.ts turns a step
 * into the tool call of each program's vocabulary.
 */
import { readFileSync } from 'node:fs';

export interface ReadStep {
  read: string;
  say?: string;
}
export interface GrepStep {
  grep: string;
  /** A folder or a file, relative to the repository root. */
  in: string;
  say?: string;
}
export interface EditStep {
  edit: string;
  /** Whole lines, found exactly once in the file when the step runs. */
  old: string;
  new: string;
  say?: string;
}
export interface BashStep {
  bash: string;
  say?: string;
}
export interface AnswerStep {
  answer: string;
}
export type ToolStep = ReadStep | GrepStep | EditStep | BashStep;
export type Step = ToolStep | AnswerStep;

export interface Turn {
  prompt: string;
  /** Tool steps, then one answer that ends the turn. */
  steps: Step[];
}

export interface Task {
  name: string;
  /** The repository the task runs in, relative to the task file. */
  repo: string;
  turns: Turn[];
}

export class ScriptError extends Error {}

export function isAnswer(step: Step): step is AnswerStep {
  return 'answer' in step;
}

/** The text the model writes with a tool call: the step's `say`, or one plain sentence naming the action. */
export function sayOf(step: ToolStep): string {
  if (step.say !== undefined) return step.say;
  if ('read' in step) return `Reading ${step.read}.`;
  if ('grep' in step) return `Searching ${step.in} for ${step.grep}.`;
  if ('edit' in step) return `Editing ${step.edit}.`;
  return `Running \`${step.bash}\`.`;
}

function checkStep(step: unknown, where: string): Step {
  if (typeof step !== 'object' || step === null) throw new ScriptError(`${where}: a step must be an object`);
  const record = step as Record<string, unknown>;
  const kinds = ['read', 'grep', 'edit', 'bash', 'answer'].filter((kind) => typeof record[kind] === 'string');
  if (kinds.length !== 1) throw new ScriptError(`${where}: exactly one of read/grep/edit/bash/answer, got ${kinds}`);
  if (kinds[0] === 'grep' && typeof record.in !== 'string') throw new ScriptError(`${where}: grep needs "in"`);
  if (kinds[0] === 'edit' && (typeof record.old !== 'string' || typeof record.new !== 'string')) {
    throw new ScriptError(`${where}: edit needs "old" and "new"`);
  }
  return record as unknown as Step;
}

/** Reads and checks a task file: every turn ends with exactly one answer. */
export function loadTask(path: string): Task {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  if (typeof raw.name !== 'string' || typeof raw.repo !== 'string' || !Array.isArray(raw.turns)) {
    throw new ScriptError(`${path}: needs name, repo and turns`);
  }
  const turns = raw.turns.map((turn: unknown, t): Turn => {
    const record = turn as Record<string, unknown>;
    if (typeof record.prompt !== 'string' || !Array.isArray(record.steps)) {
      throw new ScriptError(`${path} turn ${t + 1}: needs prompt and steps`);
    }
    const steps = record.steps.map((step: unknown, s) => checkStep(step, `${path} turn ${t + 1} step ${s + 1}`));
    const answers = steps.filter(isAnswer).length;
    if (answers !== 1 || !isAnswer(steps[steps.length - 1] as Step)) {
      throw new ScriptError(`${path} turn ${t + 1}: must end with its one answer step`);
    }
    return { prompt: record.prompt, steps };
  });
  return { name: raw.name, repo: raw.repo, turns };
}

/** Number of model replies the script plays: one per step. */
export function stepCount(task: Task): number {
  return task.turns.reduce((sum, turn) => sum + turn.steps.length, 0);
}

/** The files the task's edits change, with the content they have once every edit applied in order. */
export function expectedFiles(task: Task, readFile: (path: string) => string): Map<string, string> {
  const files = new Map<string, string>();
  for (const step of task.turns.flatMap((turn) => turn.steps)) {
    if (!('edit' in step)) continue;
    const before = files.get(step.edit) ?? readFile(step.edit);
    const at = before.indexOf(step.old);
    if (at < 0 || before.indexOf(step.old, at + 1) >= 0) throw new ScriptError(`${step.edit}: "old" must occur once`);
    const end = at + step.old.length;
    if ((at > 0 && before[at - 1] !== '\n') || (end < before.length && before[end] !== '\n')) {
      throw new ScriptError(`${step.edit}: "old" must be whole lines (Codex edits by apply_patch lines)`);
    }
    files.set(
      step.edit,
      before.replace(step.old, () => step.new),
    );
  }
  return files;
}
