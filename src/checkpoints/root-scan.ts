/**
 * The scan around a Bash call over every root the file tools may change: the project, then each added directory
 * (`--add-dir`, `/add-dir`, `permissions.additionalDirectories`), into one image (project files by their relative
 * path, an added directory's by their absolute path). The caps are the project's, shared by all roots: at most
 * `maxFiles` files and `maxCopyBytes` copied in one scan over them all, so adding a directory cannot multiply what a
 * Bash call costs. An added directory that does not fit (too many files, too slow, gone) is left out of this scan
 * and named; the project's own failure fails the scan, as before.
 */
import type { BlobStore } from './blob-store.js';
import type { GitListingResult } from './git-files.js';
import type { IndexView } from './index-stat.js';
import { scanProject, type Image, type ScanLimits } from './project-scan.js';

export interface RootsScan {
  ok: true;
  image: Image;
  /** Every root's files came from git alone (see ScanResult). */
  plain: boolean;
  /** The added roots this scan covers (an after-scan covers the same ones). */
  roots: string[];
  /** Added roots left out, each with why. */
  skipped: Array<{ root: string; reason: string }>;
}

export type RootsScanResult = RootsScan | { ok: false; reason: string };

/** The image key prefix of an added root's files. */
export function rootPrefix(root: string): string {
  return root.endsWith('/') ? root : `${root}/`;
}

export async function scanRoots(
  projectRoot: string,
  extraRoots: readonly string[],
  previous: Image,
  blobs: BlobStore,
  limits: ScanLimits,
  signal: AbortSignal,
  racyFrom = Infinity,
  /** The project's git index, already being read (project-scan.ts). */
  indexRead?: Promise<IndexView | undefined>,
  /** The project's git listing, already started (project-scan.ts). */
  listed?: Promise<GitListingResult>,
): Promise<RootsScanResult> {
  const project = await scanProject(
    projectRoot,
    previous,
    blobs,
    limits,
    signal,
    { prefix: '' },
    racyFrom,
    indexRead,
    listed,
  );
  if (!project.ok) return project;
  const image: Image = { ...project.image };
  let files = Object.keys(project.image).length;
  let copied = project.copiedBytes;
  const roots: string[] = [];
  const skipped: Array<{ root: string; reason: string }> = [];
  for (const root of extraRoots) {
    if (signal.aborted) {
      skipped.push({ root, reason: 'the scan was interrupted' });
      continue;
    }
    const left: ScanLimits = {
      ...limits,
      maxFiles: limits.maxFiles - files,
      maxCopyBytes: Math.max(0, limits.maxCopyBytes - copied),
    };
    const tooMany = `the project and the added directories have more than ${limits.maxFiles} files`;
    if (left.maxFiles <= 0) {
      skipped.push({ root, reason: tooMany });
      continue;
    }
    const scanned = await scanProject(
      root,
      previous,
      blobs,
      left,
      signal,
      {
        prefix: rootPrefix(root),
        // The project (or an earlier root) inside this one is scanned once, under its own keys.
        exclude: [projectRoot, ...roots],
      },
      racyFrom,
    );
    if (!scanned.ok) {
      // Over what is left of the shared file limit: said as the limit the user set, not the remainder.
      const reason =
        scanned.reason === `the project has more than ${left.maxFiles} files`
          ? tooMany
          : scanned.reason.replace(/^the project/, 'the directory');
      skipped.push({ root, reason });
      continue;
    }
    Object.assign(image, scanned.image);
    files += Object.keys(scanned.image).length;
    copied += scanned.copiedBytes;
    roots.push(root);
  }
  return { ok: true, image, roots, skipped, plain: project.plain && roots.length === 0 && skipped.length === 0 };
}

/** Only the image entries of the project and of `roots` (a root an after-scan lost is compared by neither side). */
export function keepRoots(image: Image, extraRoots: readonly string[], covered: readonly string[]): Image {
  const dropped = extraRoots.filter((root) => !covered.includes(root)).map(rootPrefix);
  if (dropped.length === 0) return image;
  const kept: Image = {};
  for (const [path, entry] of Object.entries(image)) {
    if (!dropped.some((prefix) => path.startsWith(prefix))) kept[path] = entry;
  }
  return kept;
}
