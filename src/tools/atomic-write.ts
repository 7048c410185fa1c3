import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` so readers see either the old file or the new one, never half: a temp file in the same
 * directory (same filesystem, so rename is atomic) renamed over the target. Parent directories are created;
 * an overwritten file keeps its permission bits.
 */
export async function writeFileAtomic(absolutePath: string, content: string): Promise<void> {
  const dir = dirname(absolutePath);
  await mkdir(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = (await stat(absolutePath)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const temp = join(dir, `.${basename(absolutePath)}.mca-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, { encoding: 'utf8', flag: 'wx', mode: mode ?? 0o666 });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, absolutePath);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
