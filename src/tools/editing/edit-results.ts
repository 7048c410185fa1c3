/**
 * What history, the ledger and the transcript make of an Edit or MultiEdit result (DESIGN.md
 * "ToolResultCompressor": path, applied, replacements, the first 20 diff lines). Both tools' members start here.
 */
import { clip, isFiniteNumber, isRecord, isString } from '../../text/json-guards.js';
import type { JsonRecord, ProposedChange, ToolMembers } from '../registry/define-tool.js';
import { COMPRESSION_LIMITS as LIMIT, count, headLines, stringField, withCut } from '../registry/result-forms.js';

export const editMembers = {
  compress: (data: JsonRecord): JsonRecord | undefined => {
    const { path, applied, replacements, diff } = data;
    if (!isString(path) || typeof applied !== 'boolean' || !isFiniteNumber(replacements) || !isString(diff)) {
      return undefined;
    }
    const head = headLines(diff, LIMIT.diffLines, LIMIT.diffChars);
    const result: JsonRecord = { path: clip(path, LIMIT.pathChars), applied, replacements };
    if (isFiniteNumber(data.edits)) result.edits = data.edits;
    result.diff = head.text;
    return withCut(result, 'diff_lines_cut', head.cut);
  },
  shrink: (data: JsonRecord): string | undefined => {
    if (!isString(data.path)) return undefined;
    return data.applied === false
      ? `edit of ${data.path} not applied`
      : `edited ${data.path}: ${count(data.replacements)} replacements`;
  },
  locations: (input: JsonRecord, data: JsonRecord) =>
    isString(input.path) && data.applied !== false ? [{ path: input.path, kind: 'edited' as const }] : [],
  title: (input: JsonRecord): string => stringField(input, 'path') ?? '',
  diff: (data: JsonRecord): string | undefined => stringField(data, 'diff'),
  /** Edit's input is one edit, MultiEdit's has `edits`: each old/new pair is one change of the file. */
  changes: (input: JsonRecord): ProposedChange[] => {
    const path = stringField(input, 'path');
    if (path === undefined) return [];
    const edits = Array.isArray(input.edits) ? input.edits : [input];
    return edits.flatMap((edit: unknown) => {
      const fields = isRecord(edit) ? edit : {};
      return isString(fields.old_string) && isString(fields.new_string)
        ? [{ path, oldText: fields.old_string, newText: fields.new_string }]
        : [];
    });
  },
} satisfies Omit<ToolMembers, 'display'> & { title: unknown; diff: unknown; changes: unknown };
