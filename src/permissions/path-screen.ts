/**
 * The paths the deny and ask rules withhold from a reading tool, as plain data a worker thread can receive, and
 * the one test of a path against them. A walking tool (Grep, Glob, LS) opens or lists many files the call never
 * named; each of them must pass the same rules a Read of that file would (`Read(./.env)` hides `.env` from Grep's
 * `include` as well). An ask rule withholds too: nobody can be asked about every file of a walk.
 */
import { pathSpecifierMatches } from './rule-match.js';

export interface PathScreen {
  projectRoot: string;
  home?: string;
  /** Deny and ask rules with a path specifier that cover the tool (`Read(./.env)`, `Grep(secrets/**)`). */
  rules: ReadonlyArray<{ text: string; specifier: string }>;
}

/** The text of the first rule that withholds `absolutePath` (or a directory above it), else undefined. */
export function withheldBy(screen: PathScreen, absolutePath: string): string | undefined {
  const context = { projectRoot: screen.projectRoot, ...(screen.home ? { home: screen.home } : {}) };
  return screen.rules.find((rule) => pathSpecifierMatches(rule.specifier, absolutePath, context))?.text;
}
