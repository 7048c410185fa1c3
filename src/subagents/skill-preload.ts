/**
 * A subagent definition's `skills`: their instructions go into the subagent's first message, whole (as in Claude
 * Code), so it starts with them instead of having to load them. A name that is not a loaded skill is named in a
 * line so the subagent knows it is missing.
 */
import type { Skill } from './skills.js';

export function skillPreload(names: readonly string[], skills: ReadonlyMap<string, Skill>): string {
  if (names.length === 0) return '';
  const parts = names.map((name) => {
    const skill = skills.get(name);
    return skill
      ? `<skill name="${skill.name}" folder="${skill.dir}">\n${skill.body}\n</skill>`
      : `(skill ${name} is not available)`;
  });
  return `${parts.join('\n\n')}\n\n`;
}
