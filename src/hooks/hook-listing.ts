/**
 * Hooks as lines for people: `/hooks` in the REPL (the hooks in effect with their source file and last outcome,
 * those held back until the project is trusted, a disableAllHooks in force) and the trust question (the project's
 * hook commands, which trusting it would let run). All text is neutralised: commands come from files.
 */
import { neutralizeControlSequences } from '../text/terminal-safe.js';
import type { HookCommand } from './hook-config.js';
import type { HookListing } from './hook-engine.js';
import type { LoadedHooks } from './hook-sources.js';

function describe(hook: HookCommand): string {
  const matcher = hook.matcher === '' ? '' : ` [${hook.matcher}]`;
  return neutralizeControlSequences(`${hook.event}${matcher}: ${hook.command.trim().replace(/\s*\n\s*/g, ' ⏎ ')}`);
}

/** One line per project hook the trust question names. */
export function trustLines(pending: readonly HookCommand[]): string[] {
  return pending.map((hook) => `hook ${describe(hook)} (${neutralizeControlSequences(hook.source)})`);
}

function time(at: Date): string {
  return at.toTimeString().slice(0, 8);
}

/** The `/hooks` answer. */
export function hooksReport(entries: readonly HookListing[], loaded: LoadedHooks): string[] {
  const lines: string[] = [];
  if (loaded.disabledBy) {
    lines.push(`All hooks are off: disableAllHooks is true in ${neutralizeControlSequences(loaded.disabledBy)}.`);
  } else if (entries.length === 0) lines.push('No hooks in effect.');
  else {
    lines.push(`Hooks in effect (${entries.length}):`);
    for (const { hook, last } of entries) {
      lines.push(`  ${describe(hook)}`);
      const outcome = last ? `last run ${time(last.at)}: ${neutralizeControlSequences(last.summary)}` : 'not run yet';
      lines.push(`    from ${neutralizeControlSequences(hook.source)} · ${outcome}`);
    }
  }
  if (loaded.pending.length > 0) {
    lines.push(`Held back until you trust this project (\`mca trust\`), ${loaded.pending.length}:`);
    for (const hook of loaded.pending) lines.push(`  ${describe(hook)}  (${neutralizeControlSequences(hook.source)})`);
  }
  return lines;
}
