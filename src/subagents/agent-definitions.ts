/**
 * Subagent definitions in Claude Code's format: Markdown with YAML frontmatter (`name`, `description`, `tools`,
 * `disallowedTools`, `model`, `permissionMode`, `maxTurns`, `skills`; the body is the subagent's system prompt),
 * read from the user's `~/.claude/agents/` and `$MCA_HOME/agents/`, a trusted project's `.claude/agents/`, and
 * plugins (`<plugin>:<name>`), and `--agents <json>`; later wins (flag over project over user over built-in). Built-in: `general-purpose` and
 * `Explore`. A broken file costs one line naming it (definition-files.ts bounds what a hostile folder costs).
 */
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PluginFolder } from '../commands/plugin-folders.js';
import { markdownEntries } from '../commands/plugin-parts.js';
import { resolveModelName } from '../config/model-aliases.js';
import { checkModelName } from '../config/model-profiles.js';
import { isRecord } from '../text/json-guards.js';
import type { AgentDefinition, SubagentMode } from './agent-definition.js';
import { BUILT_IN_AGENTS } from './built-in-agents.js';
import {
  boundedDescription,
  type DefinitionScope,
  folderEntries,
  listField,
  ProblemList,
  readDefinition,
  stringField,
} from './definition-files.js';

export const AGENT_MAX_BYTES = 64 * 1024;
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface AgentSources {
  projectRoot: string;
  mcaHome: string;
  home: string;
  trusted: boolean;
  /** `--agents <json>`: an object of definitions keyed by name. */
  flagJson?: string | undefined;
  /** Plugins: their `agents/*.md` (or the manifest's agent paths) as the subagent `<plugin>:<name>`. */
  plugins?: readonly PluginFolder[] | undefined;
}

function modeOf(value: unknown, where: string, problems: ProblemList): SubagentMode {
  if (value === undefined || value === 'default') return 'default';
  if (value === 'plan') return 'plan';
  problems.add(
    `${where}: permissionMode ${JSON.stringify(value)} is not applied (a subagent never has more permission than the session)`,
  );
  return 'default';
}

function turnsOf(value: unknown, where: string, problems: ProblemList): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 1000) return value;
  problems.add(`${where}: maxTurns must be a whole number from 1 to 1000; ignored`);
  return undefined;
}

/** A definition from frontmatter-like fields; undefined (with a problem line) when it cannot be used. */
function definitionOf(
  fields: Record<string, unknown>,
  prompt: string,
  fallbackName: string,
  scope: DefinitionScope,
  path: string | undefined,
  problems: ProblemList,
): AgentDefinition | undefined {
  const where = path ?? `--agents ${fallbackName}`;
  const name = stringField(fields, 'name') ?? fallbackName;
  if (!AGENT_NAME.test(name)) {
    problems.add(`ignored ${where}: the name must be letters, digits, - and _ (at most 64)`);
    return undefined;
  }
  const description = stringField(fields, 'description');
  if (description === undefined) {
    problems.add(`ignored ${where}: it has no description`);
    return undefined;
  }
  // `inherit` (the session's model), a short name (`haiku`: its current model id) or a model id.
  const given = stringField(fields, 'model')?.trim();
  let model = given === undefined || given === '' || given === 'inherit' ? 'inherit' : resolveModelName(given);
  const check = model === 'inherit' ? undefined : checkModelName(model);
  if (check !== undefined && !check.ok) {
    problems.add(`${where}: ${check.message}; the subagent uses the session's model`);
    model = 'inherit';
  }
  return {
    name,
    description: boundedDescription(description, where, problems),
    prompt: prompt.trim(),
    tools: listField(fields.tools),
    disallowedTools: listField(fields.disallowedTools) ?? [],
    model,
    permissionMode: modeOf(fields.permissionMode, where, problems),
    maxTurns: turnsOf(fields.maxTurns, where, problems),
    skills: listField(fields.skills) ?? [],
    ...isolationOf(fields.isolation, where, problems),
    scope,
    path,
  };
}

/** `isolation: worktree` is the one value mca knows; another is reported and ignored. */
function isolationOf(value: unknown, where: string, problems: ProblemList): { isolation?: 'worktree' } {
  if (value === undefined) return {};
  if (value === 'worktree') return { isolation: 'worktree' };
  problems.add(`${where}: isolation ${JSON.stringify(value)} is not known (only "worktree"); ignored`);
  return {};
}

async function loadFolder(
  dir: string,
  scope: DefinitionScope,
  root: string | undefined,
  problems: ProblemList,
): Promise<AgentDefinition[]> {
  const found: AgentDefinition[] = [];
  for (const entry of folderEntries(dir, problems)) {
    if (!entry.name.endsWith('.md') || (!entry.isFile() && !entry.isSymbolicLink())) continue;
    const path = join(dir, entry.name);
    const parsed = await readDefinition(path, { maxBytes: AGENT_MAX_BYTES, root }, problems);
    if (!parsed) continue;
    const definition = definitionOf(parsed.front, parsed.body, basename(entry.name, '.md'), scope, path, problems);
    if (definition) found.push(definition);
  }
  return found;
}

function fromFlag(json: string, problems: ProblemList): AgentDefinition[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    problems.add(`ignored --agents: not valid JSON (${(error as Error).message})`);
    return [];
  }
  return agentsFromObject(parsed, '--agents', problems);
}

/**
 * Definitions from an object keyed by name, the shape of `--agents` and of the Agent SDK's initialize `agents`
 * (`{name: {description, prompt, tools?, disallowedTools?, model?, ...}}`); `label` names the source in problems.
 */
export function agentsFromObject(parsed: unknown, label: string, problems: ProblemList): AgentDefinition[] {
  if (!isRecord(parsed)) {
    problems.add(`ignored ${label}: expected an object of definitions keyed by name`);
    return [];
  }
  return Object.entries(parsed).flatMap(([name, value]) => {
    if (!isRecord(value)) {
      problems.add(`ignored ${label} ${name}: expected an object`);
      return [];
    }
    const prompt = typeof value.prompt === 'string' ? value.prompt : '';
    return definitionOf({ ...value, name }, prompt, name, 'flag', undefined, problems) ?? [];
  });
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Every definition by name, and one line per problem (bounded). Never throws. */
export async function loadAgentDefinitions(
  sources: AgentSources,
  problems = new ProblemList(),
): Promise<{ agents: Map<string, AgentDefinition>; problems: string[] }> {
  const root = realOr(sources.projectRoot);
  const agents = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((agent) => [agent.name, agent]));
  const layers: Array<[string, DefinitionScope, string | undefined]> = [
    [join(sources.home, '.claude', 'agents'), 'user', undefined],
    [join(sources.mcaHome, 'agents'), 'user', undefined],
  ];
  if (sources.trusted) layers.push([join(root, '.claude', 'agents'), 'project', root]);
  for (const [dir, scope, fileRoot] of layers) {
    for (const agent of await loadFolder(dir, scope, fileRoot, problems)) agents.set(agent.name, agent);
  }
  for (const plugin of sources.plugins ?? []) {
    for (const { dir, file } of markdownEntries(plugin.agents)) {
      for (const agent of await loadFolder(dir, 'user', plugin.dir, problems)) {
        if (file !== undefined && agent.path !== file) continue;
        agents.set(`${plugin.name}:${agent.name}`, { ...agent, name: `${plugin.name}:${agent.name}` });
      }
    }
  }
  if (sources.flagJson !== undefined)
    for (const agent of fromFlag(sources.flagJson, problems)) agents.set(agent.name, agent);
  return { agents, problems: problems.list() };
}

export type { AgentDefinition, SubagentMode };
