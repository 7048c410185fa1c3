/**
 * `mca rewind --list [-r <session>] [--cwd <dir>]` and `mca rewind <checkpoint> [--code|--conversation] [--force]
 * [--dry-run] [-r <session>]`: the checkpoints of the latest session in this directory (or of `-r`), and rewinding
 * to one: files and conversation by default. A file changed outside mca since is a conflict: nothing is written
 * without --force. Needs no API key; never touches git.
 */
import { CheckpointError, type RewindResult } from '../../checkpoints/rewind.js';
import { firstLine, type Checkpoint } from '../../checkpoints/checkpoint-list.js';
import { ProjectCheckpoints } from '../../checkpoints/project-checkpoints.js';
import { credentialSecrets, loadCredentials, resolveMcaHome } from '../../config/config.js';
import { SessionStore, isSessionError } from '../../store/session-store.js';
import { neutralizeControlSequences } from '../../text/terminal-safe.js';
import { resolveProjectRoot } from '../bootstrap.js';
import { CliError, EXIT_AGENT_FAILURE, EXIT_OK } from '../exit-codes.js';

const USAGE =
  'usage: mca rewind --list [-r <session>] | mca rewind <checkpoint> [--code|--conversation] [--force] [--dry-run] [-r <session>] [--cwd <dir>]';

interface RewindArgs {
  list: boolean;
  target?: string;
  session?: string;
  cwd?: string;
  code: boolean;
  conversation: boolean;
  force: boolean;
  dryRun: boolean;
}

function parse(args: readonly string[]): RewindArgs {
  const parsed: RewindArgs = { list: false, code: false, conversation: false, force: false, dryRun: false };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const value = (): string => {
      const next = args[index + 1];
      if (next === undefined || next.startsWith('-')) throw new CliError(`${arg} needs a value (${USAGE})`);
      index += 1;
      return next;
    };
    if (arg === '--list' || arg === '-l') parsed.list = true;
    else if (arg === '--code') parsed.code = true;
    else if (arg === '--conversation') parsed.conversation = true;
    else if (arg === '--force') parsed.force = true;
    else if (arg === '--dry-run') parsed.dryRun = true;
    else if (arg === '-r' || arg === '--resume') parsed.session = value();
    else if (arg === '--cwd') parsed.cwd = value();
    else if (arg.startsWith('-') || parsed.target !== undefined) throw new CliError(USAGE);
    else parsed.target = arg;
  }
  if (parsed.list === (parsed.target !== undefined)) throw new CliError(USAGE);
  if (!parsed.code && !parsed.conversation) {
    parsed.code = true;
    parsed.conversation = true;
  }
  return parsed;
}

function safe(text: string): string {
  return neutralizeControlSequences(text);
}

function when(ts: string): string {
  return ts.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function listLine(checkpoint: Checkpoint): string {
  const files = `${checkpoint.files.length} file${checkpoint.files.length === 1 ? '' : 's'}`;
  return `${checkpoint.id}  ${when(checkpoint.ts)}  ${files.padEnd(8)}  ${safe(firstLine(checkpoint.text)).slice(0, 100)}`;
}

function report(result: RewindResult, args: RewindArgs): number {
  const out: string[] = [];
  const err: string[] = [];
  const { plan } = result;
  const conflicts = plan.items.filter((item) => item.conflict);
  if (result.refused) {
    err.push(
      `mca: not rewound: ${conflicts.length} file${conflicts.length === 1 ? '' : 's'} changed outside mca since then:`,
    );
    for (const item of conflicts) err.push(`  ${safe(item.path)}`);
    err.push('Run again with --force to overwrite them.');
  } else if (args.dryRun) {
    out.push(`Would restore ${plan.items.length} file${plan.items.length === 1 ? '' : 's'}:`);
    for (const item of plan.items)
      out.push(
        `  ${item.target.kind === 'absent' ? 'delete ' : 'restore'} ${safe(item.path)}${item.conflict ? '  (changed outside mca)' : ''}`,
      );
  } else {
    if (args.code) {
      const restored = result.applied?.restored ?? [];
      out.push(
        `Restored ${restored.length} file${restored.length === 1 ? '' : 's'} to checkpoint ${result.checkpoint.id}.`,
      );
      for (const path of restored) out.push(`  ${safe(path)}`);
      for (const failed of result.applied?.failed ?? [])
        err.push(`mca: not restored: ${safe(failed.path)} (${safe(failed.reason)})`);
    }
    if (args.conversation)
      out.push(`Conversation rewound to before checkpoint ${result.checkpoint.id}; mca -c continues from there.`);
    if (result.undoId) out.push(`Undo with: mca rewind ${result.undoId}`);
  }
  for (const item of plan.notRestorable) err.push(`mca: cannot restore ${safe(item.path)}: ${safe(item.reason)}`);
  for (const reason of plan.untracked) err.push(`mca: a Bash command's changes were not tracked: ${safe(reason)}`);
  if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
  if (err.length > 0) process.stderr.write(`${err.join('\n')}\n`);
  return result.refused ? EXIT_AGENT_FAILURE : EXIT_OK;
}

export async function runRewindCommand(args: readonly string[]): Promise<number> {
  const parsed = parse(args);
  const projectRoot = resolveProjectRoot(parsed.cwd);
  let mcaHome: string;
  try {
    mcaHome = resolveMcaHome();
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const store = new SessionStore(mcaHome, projectRoot);
  // A session a rewind cut back to before its first prompt is not "latest" for -c, but its rewind can be undone.
  const sessionId = parsed.session ?? (await store.latest()) ?? (await store.list())[0]?.id;
  if (sessionId === undefined) throw new CliError(`no session in ${projectRoot} to rewind`);
  // The keys in this environment: a file holding one is never copied into the store (the rewind's own checkpoint).
  const checkpoints = new ProjectCheckpoints(store, store.projectRoot, undefined, credentialSecrets(loadCredentials()));
  try {
    const id = parsed.session ? resolveSessionId(await store.list(), sessionId) : sessionId;
    if (parsed.list) {
      const list = await checkpoints.listCheckpoints(id);
      if (list.length === 0) process.stdout.write('(no checkpoints in this session)\n');
      for (const checkpoint of [...list].reverse()) process.stdout.write(`${listLine(checkpoint)}\n`);
      return EXIT_OK;
    }
    const result = await checkpoints.rewind(id, parsed.target ?? '', {
      code: parsed.code,
      conversation: parsed.conversation,
      force: parsed.force,
      dryRun: parsed.dryRun,
    });
    return report(result, parsed);
  } catch (error) {
    if (error instanceof CheckpointError || isSessionError(error)) throw new CliError((error as Error).message);
    throw error;
  }
}

/** A session id or unique prefix among the project's sessions. */
function resolveSessionId(sessions: ReadonlyArray<{ id: string }>, given: string): string {
  const matches = sessions.filter((session) => session.id === given || session.id.startsWith(given));
  const exact = matches.find((session) => session.id === given);
  if (exact) return exact.id;
  if (matches.length === 1 && matches[0] && given.length >= 4) return matches[0].id;
  throw new CliError(`no session "${given}" in this directory (or the prefix is ambiguous)`);
}
