import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { posix } from 'node:path';
import { isImagePath } from '../fs/image-file.js';

/**
 * @file mentions (spec A7, C3, E4; DESIGN.md "@file"). A mention only produces a reminder to Read (or LS) the
 * path; file content is never injected here. A mentioned image file (by extension) is not in the reminder: it is
 * listed in `images` for the agent to attach (loop/attachments.ts), as Claude Code attaches `@shot.png`.
 */

export type MentionKind = 'file' | 'dir';

/** What the preprocessor may know about the project: the kind of a project-relative path, or undefined. */
export interface ProjectFsView {
  /** `undefined` for a missing path and for any path that resolves outside the project (`../`, absolute). */
  kind(relativePath: string): MentionKind | undefined;
}

/** Alias kept for callers that name the view this way. */
export type FsView = ProjectFsView;

export interface Mention {
  /** The path as the user wrote it (minus stripped trailing punctuation). */
  path: string;
  kind: MentionKind;
  /** Written as `@"path with spaces"`. */
  quoted: boolean;
  /** How the reminder shows it: `@src/a.ts` or `@"a b.md"`. */
  display: string;
}

export interface PreprocessedInput {
  /** The user's text, plus one `<system-reminder>` block after a blank line when there are mentions. */
  text: string;
  /** Every distinct existing mention, in order of first appearance (not capped at five). */
  mentions: Mention[];
  /** The mentioned image files (also in `mentions`), to attach rather than Read. */
  images: Mention[];
}

export const MAX_LISTED_MENTIONS = 5;

/** `@"quoted path"` or the spec's bare-path form; a letter or digit right before `@` means it is not a mention. */
const MENTION_PATTERN = /(?<![A-Za-z0-9])@(?:"([^"\n]+)"|([a-zA-Z0-9/._-]+(?:\.[a-zA-Z0-9]+)?))/g;

/** Sentence punctuation a bare mention may swallow ("look at @src/a.ts."); only `.` can actually be matched. */
const TRAILING_PUNCTUATION = /[.,;:!?]$/;

function dedupeKey(path: string): string {
  const normalized = posix.normalize(path);
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

/** Resolves a bare match: as written if it exists, else with trailing punctuation stripped one char at a time. */
function resolveBare(raw: string, fsView: ProjectFsView): { path: string; kind: MentionKind } | undefined {
  let candidate = raw;
  for (;;) {
    const kind = fsView.kind(candidate);
    if (kind !== undefined) return { path: candidate, kind };
    if (!TRAILING_PUNCTUATION.test(candidate) || candidate.length <= 1) return undefined;
    candidate = candidate.slice(0, -1);
  }
}

function displayOf(path: string, quoted: boolean): string {
  return quoted ? `@"${path}"` : `@${path}`;
}

function display(mention: Mention): string {
  return mention.display;
}

/**
 * The instruction line. Files and directories get the exact DESIGN.md wording; a mix names each group so the
 * model knows which tool applies to which path:
 *   files only:  "You MUST read this file|these files with the Read tool before answering."
 *   dirs only:   "You MUST list this directory|these directories with the LS tool before answering."
 *   mixed:       "You MUST read this file (@a) with the Read tool and list this directory (@d) with the LS tool
 *                 before answering." (plural forms "these files (@a, @b)", "these directories (@d, @e)")
 * Only the listed (at most five) mentions decide the wording.
 */
function instruction(listed: readonly Mention[]): string {
  const files = listed.filter((mention) => mention.kind === 'file');
  const dirs = listed.filter((mention) => mention.kind === 'dir');
  const fileNoun = files.length === 1 ? 'this file' : 'these files';
  const dirNoun = dirs.length === 1 ? 'this directory' : 'these directories';
  if (dirs.length === 0) return `You MUST read ${fileNoun} with the Read tool before answering.`;
  if (files.length === 0) return `You MUST list ${dirNoun} with the LS tool before answering.`;
  const names = (group: readonly Mention[]): string => group.map(display).join(', ');
  return (
    `You MUST read ${fileNoun} (${names(files)}) with the Read tool and ` +
    `list ${dirNoun} (${names(dirs)}) with the LS tool before answering.`
  );
}

/** The single reminder block for a non-empty mention list. */
export function mentionReminder(mentions: readonly Mention[]): string {
  const listed = mentions.slice(0, MAX_LISTED_MENTIONS);
  const hidden = mentions.length - listed.length;
  const more = hidden > 0 ? ` (and ${hidden} more\u2026)` : '';
  return [
    '<system-reminder>',
    `The user mentioned ${listed.map(display).join(', ')}${more}.`,
    instruction(listed),
    '</system-reminder>',
  ].join('\n');
}

/**
 * Finds existing @mentions and appends one reminder block (after a blank line) naming them. Only `own` (the user's
 * own words within `text`; all of `text` when absent) is searched: an `@path` in resource text, hook context or an
 * editor's selection is not the user's mention.
 */
export function preprocessInput(text: string, fsView: ProjectFsView, own: string = text): PreprocessedInput {
  const mentions: Mention[] = [];
  const seen = new Set<string>();
  for (const match of own.matchAll(MENTION_PATTERN)) {
    const quotedPath = match[1];
    const barePath = match[2];
    let found: Mention | undefined;
    if (quotedPath !== undefined) {
      const kind = fsView.kind(quotedPath);
      if (kind !== undefined) found = { path: quotedPath, kind, quoted: true, display: displayOf(quotedPath, true) };
    } else if (barePath !== undefined) {
      const resolved = resolveBare(barePath, fsView);
      if (resolved !== undefined) found = { ...resolved, quoted: false, display: displayOf(resolved.path, false) };
    }
    if (found === undefined) continue;
    const key = dedupeKey(found.path);
    if (seen.has(key)) continue;
    seen.add(key);
    mentions.push(found);
  }
  const images = mentions.filter((mention) => mention.kind === 'file' && isImagePath(mention.path));
  const toRead = mentions.filter((mention) => !images.includes(mention));
  if (toRead.length === 0) return { text, mentions, images };
  return { text: `${text}\n\n${mentionReminder(toRead)}`, mentions, images };
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * A ProjectFsView over the real file system. Absolute paths, `../` escapes and symlinks pointing outside the
 * project all count as missing; the project root itself is not a mention.
 */
export function createProjectFsView(projectRoot: string): ProjectFsView {
  let realRoot: string;
  try {
    realRoot = realpathSync(projectRoot);
  } catch {
    realRoot = resolve(projectRoot);
  }
  return {
    kind(relativePath: string): MentionKind | undefined {
      if (relativePath === '' || isAbsolute(relativePath)) return undefined;
      const target = resolve(realRoot, relativePath);
      if (!isInside(realRoot, target)) return undefined;
      try {
        const real = realpathSync(target);
        if (!isInside(realRoot, real)) return undefined;
        const info = statSync(real);
        if (info.isFile()) return 'file';
        if (info.isDirectory()) return 'dir';
        return undefined;
      } catch {
        return undefined;
      }
    },
  };
}
