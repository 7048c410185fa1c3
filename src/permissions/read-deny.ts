/**
 * "Is this path read-denied?": the one check every reader outside the Read tool (memory-file imports; walkers
 * that open files) asks, so a `Read(./.env)` deny rule holds whoever opens the file. A deny rule for `Read`
 * (which covers every reading tool, rule.ts) matches the path as written and its real path, like the policy does
 * for a tool call (rule-match.ts). The matchers load only when a Read deny rule exists; callers that cannot wait
 * (a synchronous file walk) build the check once, up front.
 */
import type { PathContext } from './rule-match.js';
import { ruleCoversTool, type PermissionRule } from './rule.js';

/** Answers for an absolute path; returns the deny rule that matched, or undefined. */
export type ReadDenyCheck = (absolutePath: string) => PermissionRule | undefined;

const NOTHING_DENIED: ReadDenyCheck = () => undefined;

/** The deny rules that speak about reading (a `Read`, `Grep`, `Glob` or `LS` rule). */
export function readDenyRules(rules: readonly PermissionRule[]): PermissionRule[] {
  return rules.filter((rule) => rule.behavior === 'deny' && ruleCoversTool(rule.tool, 'Read'));
}

/** Builds the check for `rules` (all rules in force; only Read deny rules are kept). */
export async function createReadDenyCheck(
  rules: readonly PermissionRule[],
  context: PathContext,
): Promise<ReadDenyCheck> {
  const deny = readDenyRules(rules);
  if (deny.length === 0) return NOTHING_DENIED;
  const { candidatePaths, pathSpecifierMatches } = await import('./rule-match.js');
  return (absolutePath) => {
    const paths = candidatePaths(absolutePath, context.projectRoot);
    return deny.find(
      (rule) =>
        rule.specifier === undefined || paths.some((path) => pathSpecifierMatches(rule.specifier!, path, context)),
    );
  };
}
