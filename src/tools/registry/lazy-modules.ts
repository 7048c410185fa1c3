/**
 * The tools' heavy dependencies, each imported on the first call of a tool that needs it, so loading the tool
 * registry (which every `mca -p` does before its first request) loads none of them: fast-glob with micromatch (Glob, the JS Grep, the temp-file sweep; ~200 kB), ignore
 * (.gitignore rules, LS) and diff (the diffs Edit, MultiEdit and Write show for approval).
 */
import type * as Diff from 'diff';
import type FastGlob from 'fast-glob';
import type Ignore from 'ignore';
import type * as PathScreenModule from '../../permissions/path-screen.js';

/** A loader that imports once and hands every caller the same module. */
export function once<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let module: Promise<Module> | undefined;
  return () => (module ??= load());
}

export const loadFastGlob: () => Promise<typeof FastGlob> = once(async () => (await import('fast-glob')).default);
export const loadIgnore: () => Promise<typeof Ignore> = once(async () => (await import('ignore')).default);
export const loadDiff: () => Promise<typeof Diff> = once(() => import('diff'));
/** The path-rule test (picomatch) for walks; loaded only when a deny/ask path rule exists. */
export const loadPathScreen: () => Promise<typeof PathScreenModule> = once(
  () => import('../../permissions/path-screen.js'),
);
