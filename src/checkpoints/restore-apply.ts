/**
 * Carries out a restore plan: each file back to its bytes and mode (written to a temp file beside it and renamed
 * over it), or removed when it did not exist. Paths are resolved inside the project again right before each
 * write (and inside the added directories the journal recorded), so a directory swapped for a symlink since the
 * plan cannot send a write outside. Never touches `.git`.
 */
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeDurably } from './blob-store.js';
import type { BlobStore } from './blob-store.js';
import type { RestoreItem } from './restore-plan.js';
import { resolveInProject } from '../tools/files/workspace.js';

export interface Applied {
  restored: string[];
  failed: Array<{ path: string; reason: string }>;
}

function isGitPath(path: string): boolean {
  return path === '.git' || path.startsWith('.git/') || path.includes('/.git/');
}

export async function applyRestore(
  projectRoot: string,
  roots: readonly string[],
  items: readonly RestoreItem[],
  blobs: BlobStore,
): Promise<Applied> {
  const applied: Applied = { restored: [], failed: [] };
  for (const item of items) {
    const fail = (reason: string): void => {
      applied.failed.push({ path: item.path, reason });
    };
    if (isGitPath(item.path)) {
      fail('inside .git (never touched)');
      continue;
    }
    const resolved = resolveInProject(projectRoot, item.path, roots);
    if (!resolved.ok) {
      fail(resolved.error.message);
      continue;
    }
    try {
      if (item.target.kind === 'absent') {
        const info = await lstat(resolved.absolute).catch(() => undefined);
        if (info?.isDirectory()) fail('it is a directory now');
        else if (info) await unlink(resolved.absolute);
      } else if (item.target.kind === 'file') {
        const bytes = await blobs.get(item.target.hash);
        if (!bytes) {
          fail('its stored copy is missing or damaged');
          continue;
        }
        await mkdir(dirname(resolved.absolute), { recursive: true });
        await writeDurably(resolved.absolute, bytes);
        await chmod(resolved.absolute, item.target.mode);
      }
      applied.restored.push(item.path);
    } catch (error) {
      fail((error as Error).message);
    }
  }
  return applied;
}
