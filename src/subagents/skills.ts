/**
 * Agent Skills (the open SKILL.md format): a folder holding `SKILL.md`, YAML frontmatter `name`, `description`,
 * optional `allowed-tools`, `license`, `metadata`, then the instructions. Read from the user's `~/.claude/skills/`
 * and `$MCA_HOME/skills/`, and, in a trusted project only, its `.claude/skills/` and `.agents/skills/` (later wins:
 * a project skill overrides a user one of the same name). Only names and descriptions reach the prompt up front
 * (skill-listing.ts); the body is loaded by the Skill tool when the model uses the skill.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PluginFolder } from '../commands/plugin-folders.js';
import {
  boundedDescription,
  type DefinitionScope,
  folderEntries,
  listField,
  metadataField,
  ProblemList,
  readDefinition,
  stringField,
} from './definition-files.js';

/** A SKILL.md over this size is refused (the format recommends bodies well under 5,000 tokens). */
export const SKILL_MAX_BYTES = 128 * 1024;
/** The Agent Skills name rule: lowercase letters, digits and single hyphens, at most 64 characters. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME_CHARS = 64;

export interface Skill {
  name: string;
  description: string;
  /** Tools the skill says it uses (recorded and shown; it grants nothing: the session's rules decide). */
  allowedTools: string[];
  license: string | undefined;
  metadata: Record<string, string>;
  /** The instructions after the frontmatter. */
  body: string;
  /** The skill's folder (its `references/`, `scripts/` are read from here with the normal tools). */
  dir: string;
  path: string;
  scope: DefinitionScope;
}

export interface SkillSources {
  projectRoot: string;
  mcaHome: string;
  home: string;
  /** The project is trusted: its skills load. Untrusted: they stay off. */
  trusted: boolean;
  /** Plugins: their `skills/<name>/` (and the manifest's skill paths) as the skill `<plugin>:<name>`. */
  plugins?: readonly PluginFolder[] | undefined;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

async function loadSkill(
  dir: string,
  folder: string,
  scope: DefinitionScope,
  root: string | undefined,
  problems: ProblemList,
): Promise<Skill | undefined> {
  const path = join(dir, folder, 'SKILL.md');
  const parsed = await readDefinition(path, { maxBytes: SKILL_MAX_BYTES, root }, problems);
  if (!parsed) return undefined;
  const { front, body } = parsed;
  const name = stringField(front, 'name') ?? folder;
  if (!SKILL_NAME.test(name) || name.length > MAX_NAME_CHARS) {
    problems.add(`ignored ${path}: the name must be lowercase letters, digits and hyphens (at most 64)`);
    return undefined;
  }
  const description = stringField(front, 'description');
  if (description === undefined) {
    problems.add(`ignored ${path}: the frontmatter has no description`);
    return undefined;
  }
  return {
    name,
    description: boundedDescription(description, path, problems),
    allowedTools: listField(front['allowed-tools']) ?? [],
    license: stringField(front, 'license'),
    metadata: metadataField(front.metadata),
    body: body.trim(),
    dir: join(dir, folder),
    path,
    scope,
  };
}

/** Every skill by name, and one line per problem (bounded). Never throws. */
export async function loadSkills(
  sources: SkillSources,
  problems = new ProblemList(),
): Promise<{ skills: Map<string, Skill>; problems: string[] }> {
  const root = realOr(sources.projectRoot);
  const layers: Array<[string, DefinitionScope, string | undefined]> = [
    [join(sources.home, '.claude', 'skills'), 'user', undefined],
    [join(sources.mcaHome, 'skills'), 'user', undefined],
    ...(sources.trusted
      ? ([
          [join(root, '.claude', 'skills'), 'project', root],
          [join(root, '.agents', 'skills'), 'project', root],
        ] as Array<[string, DefinitionScope, string | undefined]>)
      : []),
  ];
  const skills = new Map<string, Skill>();
  for (const [dir, scope, fileRoot] of layers) {
    for (const entry of folderEntries(dir, problems)) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const skill = await loadSkill(dir, entry.name, scope, fileRoot, problems);
      if (skill) skills.set(skill.name, skill);
    }
  }
  for (const plugin of sources.plugins ?? []) {
    for (const path of plugin.skills) {
      // A manifest path names a folder of skill folders, or one skill folder itself.
      const folders = existsSync(join(path, 'SKILL.md'))
        ? [{ dir: dirname(path), folder: basename(path) }]
        : folderEntries(path, problems)
            .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
            .map((entry) => ({ dir: path, folder: entry.name }));
      for (const { dir, folder } of folders) {
        const skill = await loadSkill(dir, folder, 'user', plugin.dir, problems);
        if (skill) skills.set(`${plugin.name}:${skill.name}`, { ...skill, name: `${plugin.name}:${skill.name}` });
      }
    }
  }
  return { skills, problems: problems.list() };
}
