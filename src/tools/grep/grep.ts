import { builtinInput } from '../input/builtin-input.js';
import type { BuiltinInputSchemas } from '../input/input-schemas.js';
import { defineTool, type ToolDefinition } from '../registry/define-tool.js';
import { loadToolCode } from '../registry/tool-code-loader.js';
import { clip, isFiniteNumber, isRecord, isString } from '../../text/json-guards.js';
import type { ToolMembers } from '../registry/define-tool.js';
import {
  COMPRESSION_LIMITS as LIMIT,
  count,
  numberField,
  plural,
  searchTitle,
  truncatedNote,
} from '../registry/result-forms.js';

import type { GrepEngineChoice } from './grep-run.js';

export type { GrepEngineChoice } from './grep-run.js';

export interface GrepToolOptions {
  /** 'auto' (default) uses ripgrep when `rg` is on PATH. Env MCA_GREP_ENGINE=js|ripgrep overrides 'auto'. */
  engine?: GrepEngineChoice;
}

/** What history, the ledger and the transcript make of a Grep result (DESIGN.md "ToolResultCompressor"). */
const grepMembers: ToolMembers = {
  compress: (data) => {
    const { pattern, total, matches } = data;
    if (!isString(pattern) || !isFiniteNumber(total) || !Array.isArray(matches)) return undefined;
    const lines: string[] = [];
    for (const match of matches.slice(0, LIMIT.grepMatches)) {
      if (!isRecord(match) || !isString(match.file) || !isFiniteNumber(match.line) || !isString(match.text)) {
        return undefined;
      }
      lines.push(`${clip(match.file, LIMIT.entryChars)}:${match.line}:${clip(match.text, LIMIT.grepLineChars)}`);
    }
    return {
      pattern: clip(pattern, LIMIT.pathChars),
      total,
      matches: lines,
      truncated: data.truncated === true || lines.length < total,
    };
  },
  shrink: (data) => (isString(data.pattern) ? `grep ${data.pattern}: ${count(data.total)} matches` : undefined),
  display: {
    title: searchTitle,
    summary: (data) =>
      `${plural(numberField(data, 'total') ?? 0, 'match').replace('matchs', 'matches')}${truncatedNote(data)}`,
  },
};

export function createGrepTool(options: GrepToolOptions = {}): ToolDefinition<BuiltinInputSchemas['Grep']> {
  const configured = options.engine ?? 'auto';
  return defineTool({
    name: 'Grep',
    promptFile: 'Grep.md',
    inputSchema: builtinInput('Grep'),
    permission: 'none',
    kind: 'search',
    ...grepMembers,
    preload: loadToolCode,
    async run(input, ctx) {
      return (await loadToolCode()).runGrep(input, ctx, configured);
    },
  });
}

export const grepTool = createGrepTool();
