import { createHash } from 'node:crypto';

/** Longest slug kept verbatim; longer ones are cut and made unique with a hash suffix. */
const MAX_SLUG_LENGTH = 100;
const HASH_CHARS = 8;

/**
 * The directory name of a project's sessions: its absolute path with every character outside
 * [A-Za-z0-9] replaced by '-' (as Claude Code does), e.g. /home/me/app → -home-me-app.
 */
export function projectSlug(projectRoot: string): string {
  const slug = projectRoot.replace(/[^A-Za-z0-9]/g, '-');
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  const hash = createHash('sha256').update(projectRoot).digest('hex').slice(0, HASH_CHARS);
  return `${slug.slice(0, MAX_SLUG_LENGTH - HASH_CHARS - 1)}-${hash}`;
}
