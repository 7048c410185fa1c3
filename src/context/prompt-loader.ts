/**
 * Loads the prompts shipped with the package (`prompts/*.md`, `prompts/tools/<Name>.md`). The directory is
 * found from this module's own location by walking up to the first directory holding `prompts/system.md`, so
 * it works from `src/` (vitest, tsx) and from `dist/` after a build, wherever the package is installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McaError } from '../errors/mca-error.js';

export type PromptErrorCode = 'PROMPTS_DIR_NOT_FOUND' | 'PROMPT_NOT_FOUND' | 'INVALID_PROMPT_NAME';

export class PromptError extends McaError {
  readonly code: PromptErrorCode;
  constructor(code: PromptErrorCode, message: string) {
    super(message);
    this.name = 'PromptError';
    this.code = code;
  }
}

/** `system`, `summary`, `tools/Read`: letters, digits, `_`, `-`, with at most one folder level. */
const PROMPT_NAME = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)?$/;

let promptsDirCache: string | undefined;
const promptCache = new Map<string, string>();

/** Walks up from `start` to the first directory containing `prompts/system.md`. */
export function findPromptsDir(start: string): string | undefined {
  let current = start;
  for (;;) {
    const candidate = join(current, 'prompts');
    if (existsSync(join(candidate, 'system.md'))) return candidate;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The package's prompts directory (cached). */
export function promptsDir(): string {
  if (promptsDirCache !== undefined) return promptsDirCache;
  const found = findPromptsDir(dirname(fileURLToPath(import.meta.url)));
  if (found === undefined) {
    throw new PromptError('PROMPTS_DIR_NOT_FOUND', 'cannot find the prompts/ directory of the mca package');
  }
  promptsDirCache = found;
  return found;
}

/** The text of `prompts/<name>.md` (cached for the life of the process); `name` may end in `.md`. */
export function loadPrompt(requested: string): string {
  const name = requested.endsWith('.md') ? requested.slice(0, -3) : requested;
  const cached = promptCache.get(name);
  if (cached !== undefined) return cached;
  if (!PROMPT_NAME.test(name)) throw new PromptError('INVALID_PROMPT_NAME', `invalid prompt name "${name}"`);
  const file = join(promptsDir(), `${name}.md`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new PromptError('PROMPT_NOT_FOUND', `missing prompt file prompts/${name}.md`);
  }
  promptCache.set(name, text);
  return text;
}

/** Like loadPrompt, but undefined when the file does not exist (e.g. a tool without its own prompt). */
export function tryLoadPrompt(name: string): string | undefined {
  try {
    return loadPrompt(name);
  } catch (error) {
    if (error instanceof PromptError && error.code === 'PROMPT_NOT_FOUND') return undefined;
    throw error;
  }
}
