/**
 * `${VAR}` and `${VAR:-default}` in MCP server configs, as Claude Code expands them in `command`, `args`, `env`,
 * `url` and `headers`. A bare `$VAR` is left as written. A variable that is unset (or, for `:-`, empty) and has
 * no default is reported: the server that needs it is not started (Claude Code refuses such a config too).
 */

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  readonly value: string;
  /** Names used without a value or a default. */
  readonly missing: readonly string[];
}

export function expandVars(text: string, env: NodeJS.ProcessEnv): Expansion {
  const missing: string[] = [];
  const value = text.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    const current = env[name];
    if (fallback !== undefined) return current !== undefined && current !== '' ? current : fallback;
    if (current !== undefined) return current;
    missing.push(name);
    return whole;
  });
  return { value, missing };
}
