/**
 * Reading the Markdown definitions subagents and skills come from: files mca reads on its own, so each is a
 * regular file inside its root, size-capped, and a broken one costs one line naming it, never a crash. What a
 * hostile folder can cost is bounded: at most MAX_ENTRIES entries per folder are looked at, at most MAX_PROBLEMS
 * lines are reported (the rest counted in one more line), and YAML aliases are capped by the parser.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { parseCommandFile } from '../commands/custom-commands.js';
import { readBoundedFile } from '../fs/bounded-read.js';
import { isRecord } from '../text/json-guards.js';

/** Entries of one folder looked at; a folder with more gets one line saying how many were skipped. */
export const MAX_ENTRIES = 200;
/** Problem lines reported per load; more are counted in one closing line. */
export const MAX_PROBLEMS = 20;
/** A frontmatter block over this many characters is refused before it is parsed. */
export const MAX_FRONTMATTER_CHARS = 16 * 1024;
/** A description longer than this is cut (the Agent Skills limit). */
export const MAX_DESCRIPTION_CHARS = 1024;

/** Where a definition came from: the user's own folders and flags, or the project (trusted projects only). */
export type DefinitionScope = 'built-in' | 'user' | 'project' | 'flag';

/** Collects one-line problems, bounded. */
export class ProblemList {
  private readonly lines: string[] = [];
  private dropped = 0;

  add(line: string): void {
    if (this.lines.length < MAX_PROBLEMS) this.lines.push(line.replace(/[\r\n]+/g, ' '));
    else this.dropped += 1;
  }

  list(): string[] {
    return this.dropped === 0 ? [...this.lines] : [...this.lines, `…and ${this.dropped} more definition problems`];
  }
}

/** The sorted entries of `dir` (none when it is missing), at most MAX_ENTRIES of them. */
export function folderEntries(dir: string, problems: ProblemList): Dirent[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (entries.length > MAX_ENTRIES) {
    problems.add(`${dir} holds ${entries.length} entries; only the first ${MAX_ENTRIES} were read`);
    return entries.slice(0, MAX_ENTRIES);
  }
  return entries;
}

export interface ParsedDefinition {
  front: Record<string, unknown>;
  body: string;
}

/** Reads and splits one definition file; a problem is reported (naming the file) and undefined returned. */
export async function readDefinition(
  path: string,
  options: { maxBytes: number; root: string | undefined },
  problems: ProblemList,
): Promise<ParsedDefinition | undefined> {
  const read = readBoundedFile(path, { maxBytes: options.maxBytes, ...(options.root ? { root: options.root } : {}) });
  if (!read.ok) {
    problems.add(`ignored ${path}: ${read.message}`);
    return undefined;
  }
  const end = read.text.indexOf('\n---', 4);
  if (read.text.startsWith('---') && (end < 0 ? read.text.length : end) > MAX_FRONTMATTER_CHARS) {
    problems.add(`ignored ${path}: its frontmatter is over ${MAX_FRONTMATTER_CHARS} characters`);
    return undefined;
  }
  const parsed = await parseCommandFile(read.text);
  if ('error' in parsed) {
    problems.add(`ignored ${path}: ${parsed.error}`);
    return undefined;
  }
  return parsed;
}

/** A frontmatter string field, trimmed; undefined when absent or not a string. */
export function stringField(front: Record<string, unknown>, key: string): string | undefined {
  const value = front[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A tool list: `Read, Grep` or `Read Grep` or a YAML list; commas inside parentheses stay in their entry. */
export function listField(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [value];
  return items
    .filter((item): item is string => typeof item === 'string')
    .flatMap((item) => item.split(/[,\s](?![^(]*\))/))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** String-valued metadata only (the Agent Skills `metadata` map); anything else is left out. */
export function metadataField(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** A description cut to MAX_DESCRIPTION_CHARS, with a problem line when it was longer. */
export function boundedDescription(description: string, path: string, problems: ProblemList): string {
  if (description.length <= MAX_DESCRIPTION_CHARS) return description;
  problems.add(`${path}: description cut to ${MAX_DESCRIPTION_CHARS} characters`);
  return `${description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…`;
}
