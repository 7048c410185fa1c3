/**
 * The Markdown files of a plugin part's paths (plugin-folders.ts): each folder whole, each `.md` file alone. Apart
 * from plugin-folders.ts so the loaders that take plugins do not load the manifest reader on a start without any.
 */
import { dirname } from 'node:path';

export function markdownEntries(paths: readonly string[]): Array<{ dir: string; file?: string }> {
  return paths.map((path) => (path.endsWith('.md') ? { dir: dirname(path), file: path } : { dir: path }));
}
