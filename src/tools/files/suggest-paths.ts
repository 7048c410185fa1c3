import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}

/** Up to three names in the missing path's directory that look like what was meant (cheap: one readdir). */
export async function similarPaths(absolute: string, relative: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dirname(absolute));
  } catch {
    return [];
  }
  const wanted = basename(absolute).toLowerCase();
  const stem = basename(wanted, extname(wanted));
  const relDir = dirname(relative);
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const score = basename(lower, extname(lower)) === stem ? 0 : distance(lower, wanted);
      return { name, score };
    })
    .filter((entry) => entry.score <= Math.max(2, Math.floor(wanted.length / 4)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((entry) => (relDir === '.' ? entry.name : join(relDir, entry.name)));
}
