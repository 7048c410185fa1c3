import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McaError } from '../../errors/mca-error.js';

export class ToolPromptError extends McaError {
  readonly code = 'TOOL_PROMPT_MISSING' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ToolPromptError';
  }
}

let cachedDir: string | undefined;

/** The shipped `prompts/tools` directory, found by walking up from this module (works from src/ and dist/). */
export function toolPromptsDir(): string {
  if (cachedDir) return cachedDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'prompts', 'tools');
    if (existsSync(candidate)) return (cachedDir = candidate);
    const parent = dirname(dir);
    if (parent === dir) throw new ToolPromptError('cannot find prompts/tools above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

const cache = new Map<string, string>();

export function loadToolPrompt(file: string): string {
  const hit = cache.get(file);
  if (hit !== undefined) return hit;
  const path = join(toolPromptsDir(), file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    throw new ToolPromptError(`tool prompt ${path} is missing`);
  }
  cache.set(file, text);
  return text;
}
