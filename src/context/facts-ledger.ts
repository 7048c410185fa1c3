/**
 * The facts ledger (DESIGN.md "Tool memory and archive", issue 13): the deterministic section every archive entry
 * ends with, built from the recorded messages, never by the model. It lists each user request's first line, the
 * files read, edited, created or deleted (path, round), the last commands with their exit codes, errors not
 * followed by a success of the same action, and the tool-memory references of the results that left the prompt.
 * When no summary could be written, the ledger alone is the archive entry (`archiveNote`): never nothing.
 */
import { isRecord, isString } from '../text/json-guards.js';
import type { FileTouch } from '../tools/registry/define-tool.js';
import { toolNamed } from '../tools/registry/tool-catalog.js';
import type { Message } from './message.js';
import { toRounds } from './message.js';

export const ARCHIVE_NOTE_HEADING = '## 📌 Archived rounds (no summary available)';
export const LEDGER_HEADING = '### Facts ledger (recorded, not summarized)';

/** Bounds keep a ledger small whatever the rounds held; what a bound cuts is counted, never silently lost. */
export const LEDGER_LIMITS = Object.freeze({
  requestChars: 160,
  requests: 30,
  filesPerKind: 25,
  commands: 8,
  commandChars: 120,
  errors: 8,
  errorChars: 160,
  refs: 40,
});

type FileKind = FileTouch['kind'];
const FILE_KINDS: readonly FileKind[] = ['read', 'edited', 'created', 'deleted'];

interface ParsedResult {
  status: string;
  data: Record<string, unknown>;
  error?: string;
  ref?: string;
}

function oneLine(text: string, max: number): string {
  const line = (text.split('\n').find((entry) => entry.trim() !== '') ?? '')
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function inputOf(message: Message): Record<string, unknown> {
  const input = message.metadata.action?.input;
  return isRecord(input) ? input : {};
}

function parseResult(content: string): ParsedResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { status: 'unknown', data: {} };
  }
  if (!isRecord(parsed)) return { status: 'unknown', data: {} };
  const result: ParsedResult = {
    status: isString(parsed.status) ? parsed.status : 'unknown',
    data: isRecord(parsed.data) ? parsed.data : {},
  };
  if (isRecord(parsed.error))
    result.error = `${String(parsed.error.code ?? 'ERROR')}: ${String(parsed.error.message ?? '')}`;
  else if (isString(parsed.summary) && result.status === 'error') result.error = parsed.summary;
  if (isString(parsed.ref)) result.ref = parsed.ref;
  return result;
}

/** The action an error or success belongs to: the tool and its path or command. */
function actionKey(tool: string, input: Record<string, unknown>): string {
  const target = isString(input.path) ? input.path : isString(input.command) ? input.command : JSON.stringify(input);
  return `${tool} ${oneLine(target ?? '', LEDGER_LIMITS.commandChars)}`;
}

function listed(items: readonly string[], max: number): string {
  const shown = items.slice(-max).join(', ');
  return items.length > max ? `(${items.length - max} earlier not shown) ${shown}` : shown;
}

class LedgerBuilder {
  readonly requests: string[] = [];
  readonly files = new Map<FileKind, Map<string, number[]>>(FILE_KINDS.map((kind) => [kind, new Map()]));
  readonly commands: string[] = [];
  readonly openErrors = new Map<string, string>();
  readonly refs: string[] = [];

  addFile(kind: FileKind, path: string, round: number): void {
    const rounds = this.files.get(kind)?.get(path) ?? [];
    if (!rounds.includes(round)) rounds.push(round);
    this.files.get(kind)?.set(path, rounds);
  }

  addTool(message: Message, round: number): void {
    const tool = message.metadata.toolName ?? message.metadata.action?.tool ?? 'unknown';
    const input = inputOf(message);
    const result = parseResult(message.content);
    const key = actionKey(tool, input);
    if (result.ref !== undefined) this.refs.push(`${result.ref} (${key}, R${round})`);
    const failed =
      result.status === 'error' || (typeof result.data.exit_code === 'number' && result.data.exit_code !== 0);
    const members = toolNamed(tool);
    const command = members?.command?.(input);
    if (command !== undefined) {
      const exit = result.data.exit_code;
      const code = typeof exit === 'number' ? `exit ${exit}` : result.status === 'error' ? 'error' : 'no exit code';
      this.commands.push(`\`${oneLine(command, LEDGER_LIMITS.commandChars)}\` → ${code} (R${round})`);
    }
    if (failed) {
      const why =
        result.error ?? (typeof result.data.exit_code === 'number' ? `exit ${result.data.exit_code}` : 'failed');
      this.openErrors.set(key, `${key} (R${round}): ${oneLine(why, LEDGER_LIMITS.errorChars)}`);
      return;
    }
    this.openErrors.delete(key);
    // The files the call touched, as its own definition reads them (a tool without `locations` touches none).
    for (const touch of members?.locations?.(input, result.data) ?? []) this.addFile(touch.kind, touch.path, round);
  }

  render(): string {
    const lines = [LEDGER_HEADING];
    if (this.requests.length > 0) lines.push(`- Requests: ${listed(this.requests, LEDGER_LIMITS.requests)}`);
    for (const kind of FILE_KINDS) {
      const entries = [...(this.files.get(kind) ?? new Map<string, number[]>())].map(
        ([path, rounds]) => `${path} (R${rounds.join(', R')})`,
      );
      if (entries.length > 0) lines.push(`- Files ${kind}: ${listed(entries, LEDGER_LIMITS.filesPerKind)}`);
    }
    if (this.commands.length > 0) {
      lines.push(`- Commands (last ${LEDGER_LIMITS.commands}): ${listed(this.commands, LEDGER_LIMITS.commands)}`);
    }
    const errors = [...this.openErrors.values()];
    if (errors.length > 0) lines.push(`- Open errors: ${listed(errors, LEDGER_LIMITS.errors)}`);
    if (this.refs.length > 0) {
      lines.push(`- Stored tool results (Recall{ref}): ${listed(this.refs, LEDGER_LIMITS.refs)}`);
    }
    return lines.join('\n');
  }
}

/** The ledger of the given messages (the rounds leaving the prompt), deterministic for equal input. */
export function factsLedger(messages: readonly Message[]): string {
  const ledger = new LedgerBuilder();
  for (const round of toRounds(messages)) {
    for (const message of round.messages) {
      if (message.role === 'user')
        ledger.requests.push(`R${round.round} "${oneLine(message.content, LEDGER_LIMITS.requestChars)}"`);
      else if (message.role === 'tool') ledger.addTool(message, round.round);
    }
  }
  return ledger.render();
}

/** A model-written summary with the ledger of the rounds it archives appended. */
export function summaryWithLedger(summary: string, archived: readonly Message[]): string {
  return `${summary.trimEnd()}\n\n${factsLedger(archived)}`;
}

/** The archive entry when no summary could be written: the ledger alone, under its own heading. */
export function archiveNote(archived: readonly Message[]): string {
  const rounds = toRounds(archived).map((round) => round.round);
  const span = rounds.length === 0 ? '' : ` (rounds ${Math.min(...rounds)}–${Math.max(...rounds)})`;
  return `${ARCHIVE_NOTE_HEADING}${span}\n\n${factsLedger(archived)}`;
}
