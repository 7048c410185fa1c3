/**
 * Rules whose specifier is a name, not a path or a command: `Skill(name)` speaks about the skill a Skill call
 * loads, `Agent(type)` (also written `Task(type)`, the Agent tool's older name) about the subagent an Agent call
 * starts. A specifier ending in `*` matches names starting with what precedes it (`Skill(team-*)`); `:*` too.
 */

/** The input field each name-ruled tool's specifier is matched against. */
const NAME_FIELDS: Readonly<Record<string, string>> = { Skill: 'skill', Agent: 'subagent_type' };

/** The field a rule's specifier names for `tool`, or undefined when `tool` takes path or command specifiers. */
export function nameFieldOf(tool: string): string | undefined {
  return NAME_FIELDS[tool];
}

/** Whether the specifier names `name`. */
export function nameSpecifierMatches(specifier: string, name: string): boolean {
  const trimmed = specifier.trim();
  if (trimmed.endsWith('*')) return name.startsWith(trimmed.replace(/:?\*$/, ''));
  return name === trimmed;
}
