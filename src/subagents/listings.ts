/** What the REPL's /skills and /agents show: one line per skill or subagent, with where it comes from. */
import type { Extensions } from './install.js';
import { listSubagentRuns } from './subagent-steps.js';

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

/**
 * `/agents`' second part: the subagent runs of the session whose transcripts are in `dir` (oldest first), each with
 * its tool calls and where its transcript is; Ctrl-O shows the steps under each Agent call in the transcript.
 */
export function subagentRunsText(dir: string): string {
  const { runs, more } = listSubagentRuns(dir);
  if (runs.length === 0) return 'No subagent has run in this session yet.';
  const lines = runs.map((run) => {
    const tools = run.steps.map((step) => step.tool);
    const shown = tools.slice(0, 8).join(', ') + (tools.length > 8 ? `, … ${tools.length - 8} more` : '');
    const steps = `${run.steps.length}${run.cut ? '+' : ''} tool call${run.steps.length === 1 ? '' : 's'}`;
    return [
      `  ${run.id} ${oneLine(run.agent, 40)}: ${oneLine(run.prompt, 80)}`,
      `    ${steps}${shown ? ` (${shown})` : ''}`,
      `    transcript ${run.path}`,
    ].join('\n');
  });
  const header = `Subagent runs in this session (${runs.length + more}${more > 0 ? `; the last ${runs.length} shown` : ''}; Ctrl-O shows their steps):`;
  return [header, ...lines].join('\n');
}
