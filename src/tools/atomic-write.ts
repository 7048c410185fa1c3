import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` so readers see either the old file or the new one, never half: a temp file in the same
 * directory (same filesystem, so rename is atomic) renamed over the target. Parent directories are created;
 * an overwritten file keeps its permission bits.
 */
export async function writeFileAtomic(absolutePath: string, content: string): Promise<void> {
  const dir = dirname(absolutePath);
  await mkdir(dir, { recursive: true });
  await removeStaleTemps(dir, basename(absolutePath));
  let mode: number | undefined;
  try {
    mode = (await stat(absolutePath)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const temp = join(dir, `.${basename(absolutePath)}.mca-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, { encoding: 'utf8', flag: 'wx', mode: mode ?? 0o666 });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, absolutePath);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A process killed between writing its temp file and renaming it (kill -9, power loss) leaves the temp file
 * behind. The next write of the same file removes those whose writer is gone; a live writer's are left alone.
 */
async function removeStaleTemps(dir: string, name: string): Promise<void> {
  const prefix = `.${name}.mca-`;
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const pid = Number(/^(\d+)-[0-9a-f]+\.tmp$/.exec(entry.slice(prefix.length))?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await unlink(join(dir, entry)).catch(() => undefined);
  }
}
