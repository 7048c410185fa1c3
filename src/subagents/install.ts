/**
 * What the runtime wires in: the subagent definitions and skills a session has (loaded once at start; an
 * untrusted project's stay off), the Agent tool (always: the built-in subagents exist everywhere) and the Skill
 * tool (only when a skill is loaded), the skills section of the system prompt, and the subagent event bus.
 */
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import type { ToolRegistry } from '../tools/registry/registry.js';
import type { AgentDefinition } from './agent-definition.js';
import { loadAgentDefinitions } from './agent-definitions.js';
import { folderEntries, ProblemList } from './definition-files.js';
import { createAgentTool } from './agent-tool.js';
import { skillListing } from './skill-listing.js';
import { createSkillTool } from './skill-tool.js';
import { loadSkills, type Skill } from './skills.js';
import { SubagentEvents } from './subagent-events.js';
import type { SubagentHost } from './subagent-run.js';
import type { PluginFolder } from '../commands/plugin-folders.js';

export interface ExtensionSources {
  projectRoot: string;
  mcaHome: string;
  home: string;
  trusted: boolean;
  /** `--agents <json>`. */
  agentsJson?: string | undefined;
  /** The loaded plugins (their skills and subagents). */
  plugins?: readonly PluginFolder[] | undefined;
}

export interface Extensions {
  agents: ReadonlyMap<string, AgentDefinition>;
  skills: ReadonlyMap<string, Skill>;
  /** The skills section of the system prompt; undefined without skills. */
  skillSection: string | undefined;
  events: SubagentEvents;
  /** Where the SubagentStop hooks plug in (the hooks engine sets `handler`); empty: a subagent just answers. */
  subagentStop: { handler?: NonNullable<SubagentHost['stopping']> };
  /** One line per definition that could not be used (bounded). */
  problems: string[];
}

/** Loads the definitions; never throws (a broken file is one problem line). */
export async function loadExtensions(sources: ExtensionSources): Promise<Extensions> {
  // One bounded list for both: a hostile project costs at most MAX_PROBLEMS lines and a count in all.
  const problems = new ProblemList();
  const skillLoad = await loadSkills(sources, problems);
  const agentLoad = await loadAgentDefinitions({ ...sources, flagJson: sources.agentsJson }, problems);
  return {
    agents: agentLoad.agents,
    skills: skillLoad.skills,
    skillSection: skillListing([...skillLoad.skills.values()]),
    events: new SubagentEvents(),
    subagentStop: {},
    problems: problems.list(),
  };
}

/** Registers the Skill tool (when there are skills) and the Agent tool, after the built-in tools. */
export function registerExtensionTools(
  registry: ToolRegistry,
  extensions: Extensions,
  host: Omit<SubagentHost, 'registry' | 'skills' | 'events'>,
): void {
  if (extensions.skills.size > 0) registry.register(createSkillTool(() => extensions.skills));
  registry.register(
    createAgentTool(extensions.agents, {
      ...host,
      registry,
      skills: () => extensions.skills,
      events: extensions.events,
      stopping: (stop) => extensions.subagentStop.handler?.(stop) ?? Promise.resolve({}),
    }),
  );
}

/**
 * What a project would switch on once trusted, for the trust question: its subagent files and skill folders, by
 * path (not parsed; at most a few of each, then a count).
 */
export function projectExtensionsPending(projectRoot: string): string[] {
  const shown = 5;
  const found: string[] = [];
  const problems = new ProblemList();
  const list = (dir: string, keep: (entry: Dirent) => boolean, what: string): void => {
    const entries = folderEntries(dir, problems).filter(keep);
    for (const entry of entries.slice(0, shown)) found.push(`${what} ${join(dir, entry.name)}`);
    if (entries.length > shown) found.push(`${entries.length - shown} more ${what}s in ${dir}`);
  };
  list(join(projectRoot, '.claude', 'agents'), (entry) => entry.name.endsWith('.md'), 'subagent');
  for (const dir of [join(projectRoot, '.claude', 'skills'), join(projectRoot, '.agents', 'skills')]) {
    list(dir, (entry) => entry.isDirectory() || entry.isSymbolicLink(), 'skill');
  }
  return found;
}
