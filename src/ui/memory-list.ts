/** The text of /memory: every memory file in L2, in prompt order, with its size and why it is there. */
import type { MemoryEntry } from '../context/memory-files.js';

const LEVEL_NAMES: Record<MemoryEntry['level'], string> = {
  rules: 'project rules',
  user: 'user',
  project: 'project',
  subdirectory: 'subdirectory',
  import: 'import',
};

export function formatMemoryList(entries: readonly MemoryEntry[]): string {
  if (entries.length === 0) {
    return 'No memory files loaded (CODE_LAW.md, CLAUDE.md, CLAUDE.local.md, AGENTS.md, ~/.claude/CLAUDE.md).';
  }
  const total = entries.filter((entry) => !entry.omitted).reduce((sum, entry) => sum + entry.chars, 0);
  const lines = entries.map((entry) => {
    const why = entry.importedBy ? `imported by ${entry.importedBy}` : LEVEL_NAMES[entry.level];
    const flags = [entry.cut ? 'cut at the per-file limit' : '', entry.omitted ? 'left out: total limit' : '']
      .filter((flag) => flag !== '')
      .join(', ');
    return `  ${entry.label}  ${entry.chars.toLocaleString('en-US')} chars  (${why}${flags ? `; ${flags}` : ''})`;
  });
  return [`Memory files in the prompt (${total.toLocaleString('en-US')} chars):`, ...lines].join('\n');
}
