/**
 * The Skill tool (`Skill{skill}`, as in Claude Code): loads one skill's instructions into the conversation when
 * the model decides to use it. It only reads what mca loaded at start, so it never asks; `Skill(name)` deny and
 * ask rules still apply at the decision point. Files the instructions mention are read with the normal tools.
 */
import { jsonSchemaInput, defineTool, type ToolDefinition } from '../tools/registry/define-tool.js';
import { errorEnvelope, successEnvelope } from '../tools/registry/envelope.js';
import { clip, isRecord, isString } from '../text/json-guards.js';
import type { Skill } from './skills.js';

export const SKILL_TOOL = 'Skill';
/** History keeps this much of a loaded body after its turn (the full body stays stored for Recall). */
const COMPRESSED_BODY_CHARS = 8_000;

const DESCRIPTION =
  'Load a skill: its instructions for a particular kind of task. The system prompt lists the available skills ' +
  'under "# Skills". Call this before starting a task a skill describes, then follow the instructions it returns. ' +
  'Files the instructions refer to (references/, scripts/) are read with Read, Grep and the other tools.';

/** The Skill tool over `skills` (read at every call, so a list reloaded while the session runs is used). */
export function createSkillTool(skills: () => ReadonlyMap<string, Skill>): ToolDefinition {
  return defineTool({
    name: SKILL_TOOL,
    description: DESCRIPTION,
    inputSchema: jsonSchemaInput({
      type: 'object',
      properties: { skill: { type: 'string', description: 'The skill name, as listed under "# Skills".' } },
      required: ['skill'],
      additionalProperties: false,
    }),
    permission: 'none',
    kind: 'other',
    compress: (data) =>
      isString(data.skill) && isString(data.body)
        ? { skill: data.skill, dir: data.dir, body: clip(data.body, COMPRESSED_BODY_CHARS) }
        : undefined,
    shrink: (data) => (isString(data.skill) ? `loaded skill ${data.skill}` : undefined),
    display: {
      title: (input) => (isString(input.skill) ? input.skill : ''),
      summary: (data) => (isString(data.skill) ? `Loaded skill ${data.skill}` : 'Loaded skill'),
    },
    run(input) {
      const wanted = isRecord(input) && isString(input.skill) ? input.skill.trim() : '';
      const all = skills();
      const skill = all.get(wanted);
      if (!skill) {
        const known = [...all.keys()].slice(0, 50).join(', ');
        return Promise.resolve(
          errorEnvelope('NOT_FOUND', `No skill named "${wanted}". Available skills: ${known || '(none)'}.`),
        );
      }
      const text = `Skill "${skill.name}" (folder ${skill.dir})\n\n${skill.body}`;
      return Promise.resolve(successEnvelope({ skill: skill.name, dir: skill.dir, body: skill.body }, text));
    },
  });
}
