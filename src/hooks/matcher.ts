/**
 * Hook matchers, as Claude Code reads them: empty (or `*`, stored as empty) matches everything; a plain name or a
 * `|`-separated list of names (`Bash`, `Edit|Write`) matches those names exactly; anything else is a regular
 * expression tested against the name (`mcp__github__.*`, `Notebook.*`), case-sensitively.
 */
const PLAIN_NAMES = /^[A-Za-z0-9_|-]+$/;

export type CompiledMatcher = { ok: true; test: (target: string) => boolean } | { ok: false; message: string };

const cache = new Map<string, CompiledMatcher>();

export function compileMatcher(matcher: string): CompiledMatcher {
  const known = cache.get(matcher);
  if (known) return known;
  let compiled: CompiledMatcher;
  if (matcher === '' || matcher === '*') compiled = { ok: true, test: () => true };
  else if (PLAIN_NAMES.test(matcher)) {
    const names = new Set(matcher.split('|').filter((name) => name !== ''));
    compiled = { ok: true, test: (target) => names.has(target) };
  } else {
    try {
      const pattern = new RegExp(matcher);
      compiled = { ok: true, test: (target) => pattern.test(target) };
    } catch (error) {
      compiled = { ok: false, message: (error as Error).message };
    }
  }
  cache.set(matcher, compiled);
  return compiled;
}

/** Whether `matcher` selects `target`; an event without a match target (Stop, UserPromptSubmit) matches all. */
export function matches(matcher: string, target: string | undefined): boolean {
  if (matcher === '' || target === undefined) return true;
  const compiled = compileMatcher(matcher);
  return compiled.ok && compiled.test(target);
}
