/**
 * The skills section of the system prompt: each skill's name and description, so the model knows what it can
 * load with the Skill tool, within a fixed budget of SKILL_LISTING_TOKENS (estimated as the context engine
 * estimates, about 3 characters a token). Each description is cut to LISTING_DESCRIPTION_CHARS; when the
 * entries do not fit, the rest are listed by name only, and what still does not fit is counted. The text is the
 * same for the same skills, so the prompt prefix stays byte-stable and cached.
 */
import { estimateTokens } from '../context/token-budget.js';
import type { Skill } from './skills.js';

/** The listing's budget in the system prompt (about 1% of a 200k window). */
export const SKILL_LISTING_TOKENS = 2_000;
/** A description longer than this is cut in the listing (the Skill tool still returns the whole body). */
export const LISTING_DESCRIPTION_CHARS = 250;

export const SKILLS_HEADING = '# Skills';

function entryOf(skill: Skill): string {
  const text = skill.description.replace(/\s+/g, ' ');
  const cut = text.length > LISTING_DESCRIPTION_CHARS ? `${text.slice(0, LISTING_DESCRIPTION_CHARS - 1)}…` : text;
  return `- ${skill.name}: ${cut}`;
}

/** The section, or undefined when there are no skills. */
export function skillListing(skills: readonly Skill[]): string | undefined {
  if (skills.length === 0) return undefined;
  const head =
    `${SKILLS_HEADING}\n\nSkills hold instructions for particular tasks. When a task matches a skill's ` +
    'description, call the Skill tool with its name first and follow what it returns; files the skill mentions ' +
    'are read with the normal tools.\n';
  const lines: string[] = [];
  let used = estimateTokens(head);
  let index = 0;
  for (; index < skills.length; index += 1) {
    const line = entryOf(skills[index] as Skill);
    const cost = estimateTokens(line) + 1;
    if (used + cost > SKILL_LISTING_TOKENS) break;
    lines.push(line);
    used += cost;
  }
  const names: string[] = [];
  for (; index < skills.length; index += 1) {
    const name = (skills[index] as Skill).name;
    const cost = estimateTokens(name) + 1;
    if (used + cost > SKILL_LISTING_TOKENS - 20) break;
    names.push(name);
    used += cost;
  }
  if (names.length > 0) lines.push(`- More skills (by name): ${names.join(', ')}`);
  const left = skills.length - index;
  if (left > 0) lines.push(`- (${left} more skills are not listed: the listing's budget is full)`);
  return `${head}\n${lines.join('\n')}`;
}
