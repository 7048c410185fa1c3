/** What the REPL's /skills and /agents show: one line per skill or subagent, with where it comes from. */
import type { Extensions } from './install.js';

function oneLine(text: string, max = 100): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function extensionLists(extensions: Extensions): { skills: string; agents: string } {
  const skills = [...extensions.skills.values()].map(
    (skill) => `  ${skill.name} (${skill.scope}) ${oneLine(skill.description)}`,
  );
  const agents = [...extensions.agents.values()].map((agent) => {
    const tools = agent.tools === undefined ? 'all tools' : agent.tools.join(', ') || 'no tools';
    return `  ${agent.name} (${agent.scope}; ${tools}) ${oneLine(agent.description)}`;
  });
  return {
    skills:
      skills.length === 0
        ? 'No skills are loaded (SKILL.md folders in ~/.claude/skills, $MCA_HOME/skills, .claude/skills, .agents/skills).'
        : `Skills (${skills.length}), loaded by the model with the Skill tool:\n${skills.join('\n')}`,
    agents: `Subagents (${agents.length}), started by the model with the Agent tool:\n${agents.join('\n')}`,
  };
}
