import { createHash } from 'node:crypto';

/** Longest readable part kept; the hash suffix makes the whole name unique per absolute path. */
const MAX_READABLE_LENGTH = 90;
const HASH_CHARS = 8;

/**
 * The directory name of a project's sessions: its absolute path with every character outside [A-Za-z0-9]
 * replaced by '-' (readable, as Claude Code does), plus a hash of the exact path, because the readable part
 * alone collides (/x/my-app and /x/my_app both give -x-my-app), e.g. /home/me/app → -home-me-app-1a2b3c4d.
 */
export function projectSlug(projectRoot: string): string {
  const readable = projectRoot.replace(/[^A-Za-z0-9]/g, '-').slice(0, MAX_READABLE_LENGTH);
  const hash = createHash('sha256').update(projectRoot).digest('hex').slice(0, HASH_CHARS);
  return `${readable}-${hash}`;
}

/**
 * The directory name sessions used before the hash suffix was always added (readable part only, hashed when
 * over 100 characters). Read, never written: sessions found there are listed only when their meta record names
 * this exact project root, since that name is shared by paths that differ only in punctuation.
 */
export function legacyProjectSlug(projectRoot: string): string {
  const slug = projectRoot.replace(/[^A-Za-z0-9]/g, '-');
  if (slug.length <= 100) return slug;
  const hash = createHash('sha256').update(projectRoot).digest('hex').slice(0, HASH_CHARS);
  return `${slug.slice(0, 100 - HASH_CHARS - 1)}-${hash}`;
}
