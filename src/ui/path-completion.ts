/**
 * `@` mentions in the input box: find the mention being typed at the cursor and insert a chosen path.
 * Paths with spaces are written quoted, `@"a b.md"`, which the InputPreprocessor also understands.
 */

export interface MentionToken {
  /** Offset of the `@`. */
  start: number;
  /** Offset just past the token (past a closing quote if there is one). */
  end: number;
  /** What has been typed after `@` (without the opening quote). */
  prefix: string;
  quoted: boolean;
}

/** The mention the cursor is in or right after, or null. An `@` after a letter or digit is no mention. */
export function findMentionAtCursor(text: string, cursor: number): MentionToken | null {
  const before = text.slice(0, cursor);
  const quoted = /(^|[^A-Za-z0-9])@"([^"\n]*)$/.exec(before);
  if (quoted) {
    const start = cursor - (quoted[2] ?? '').length - 2;
    const end = text[cursor] === '"' ? cursor + 1 : cursor;
    return { start, end, prefix: quoted[2] ?? '', quoted: true };
  }
  const plain = /(^|[^A-Za-z0-9])@([^\s"@]*)$/.exec(before);
  if (!plain) return null;
  const prefix = plain[2] ?? '';
  const rest = /^[^\s"@]*/.exec(text.slice(cursor))?.[0] ?? '';
  return { start: cursor - prefix.length - 1, end: cursor + rest.length, prefix, quoted: false };
}

function needsQuotes(path: string): boolean {
  return /\s|"/.test(path);
}

/** `@path`, or `@"path"` when the path has spaces. */
export function formatMention(path: string): string {
  return needsQuotes(path) ? `@"${path}"` : `@${path}`;
}

/**
 * Replaces the mention with the chosen path. A file gets a trailing space; a directory keeps the cursor
 * inside it (before the closing quote when quoted) so the user can go on completing.
 */
export function applyCompletion(text: string, token: MentionToken, path: string): { text: string; cursor: number } {
  const isDirectory = path.endsWith('/');
  const mention = formatMention(path);
  const tail = text.slice(token.end);
  if (isDirectory) {
    const cursor = token.start + (needsQuotes(path) ? mention.length - 1 : mention.length);
    return { text: text.slice(0, token.start) + mention + tail, cursor };
  }
  const spacer = tail.startsWith(' ') ? '' : ' ';
  const inserted = mention + spacer;
  return { text: text.slice(0, token.start) + inserted + tail, cursor: token.start + inserted.length };
}

/** The longest common prefix of the candidates (for Tab with several matches). */
export function commonPrefix(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  let prefix = paths[0] ?? '';
  for (const path of paths) {
    while (!path.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/** Extends the typed prefix to the candidates' common prefix; unchanged text when there is nothing to add. */
export function extendToCommonPrefix(
  text: string,
  token: MentionToken,
  paths: readonly string[],
): { text: string; cursor: number } | null {
  const shared = commonPrefix(paths);
  if (shared.length <= token.prefix.length) return null;
  const quoted = token.quoted || needsQuotes(shared);
  const mention = quoted ? `@"${shared}` : `@${shared}`;
  const closing = quoted ? '"' : '';
  const tail = text.slice(token.end);
  return { text: text.slice(0, token.start) + mention + closing + tail, cursor: token.start + mention.length };
}
