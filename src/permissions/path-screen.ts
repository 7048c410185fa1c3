/**
 * The one path screen: "does a deny or ask rule withhold this file from a reader?". Every reader that opens or
 * lists files the policy never saw as a tool input asks it: the walkers (Grep, Glob, LS open or list many files a
 * call never named), memory-file imports (`@.env` in CLAUDE.md) and `@image` attachments. A file passes the same
 * rules a Read of it would: `Read(./.env)` hides `.env` from Grep's `include`, from LS and from an import. An ask
 * rule withholds too (nobody can be asked about every file of a walk or an import), and a whole-tool deny rule
 * withholds everything. Each path is matched as written and by its real path, so a symlink inside the project to
 * a denied file is withheld as well.
 *
 * The screen is plain data (a worker thread can receive it); the matchers (picomatch) load with this module,
 * which callers import lazily: only once a deny or ask rule exists (policy.ts `pathScreen`).
 */
import { realpathSync } from 'node:fs';
import { pathSpecifierMatches } from './rule-match.js';

/** One rule of a screen, as the policy holds it. */
export interface ScreenRule {
  text: string;
  behavior: 'deny' | 'ask';
  /** The path pattern; undefined for a whole-tool deny rule (it withholds every path). */
  specifier?: string;
  /** Where the rule comes from (a settings file, a flag), for messages. */
  source?: string;
}

export interface PathScreen {
  projectRoot: string;
  home?: string;
  /** Deny and ask rules with a path specifier that cover the reader, and whole-tool deny rules. */
  rules: readonly ScreenRule[];
}

/** The rule that withholds `absolutePath` (or a directory above it), by path as written or real path; else undefined. */
export function withheldBy(screen: PathScreen, absolutePath: string, realPath?: string): ScreenRule | undefined {
  const context = { projectRoot: screen.projectRoot, ...(screen.home ? { home: screen.home } : {}) };
  const real = realPath ?? realPathOf(absolutePath);
  const paths = real === undefined || real === absolutePath ? [absolutePath] : [absolutePath, real];
  return screen.rules.find(
    (rule) =>
      rule.specifier === undefined || paths.some((path) => pathSpecifierMatches(rule.specifier!, path, context)),
  );
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A reader's check bound to one screen (memory imports, attachments): the withholding rule, or undefined. */
export type PathCheck = (absolutePath: string) => ScreenRule | undefined;

export function pathCheck(screen: PathScreen): PathCheck {
  return (absolutePath) => withheldBy(screen, absolutePath);
}
