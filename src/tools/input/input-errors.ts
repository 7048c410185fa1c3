import type { $ZodIssue } from 'zod/v4/core';

function fieldName(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(input)' : out;
}

function describeIssue(issue: $ZodIssue): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `"${field}" is required (${issue.expected})`;
      return `"${field}" must be ${issue.expected}, got ${issue.input === null ? 'null' : typeof issue.input}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}${field === '(input)' ? '' : ` in "${field}"`}`;
    case 'too_small':
      return `"${field}" is too small (${issue.message.replace(/^too small:\s*/i, '')})`;
    case 'too_big':
      return `"${field}" is too big (${issue.message.replace(/^too big:\s*/i, '')})`;
    case 'invalid_value':
      return `"${field}" must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return `"${field}": ${issue.message}`;
  }
}

/** One line naming every bad field and what was expected, for an INVALID_PARAM envelope. */
export function describeInputError(tool: string, issues: readonly $ZodIssue[], allowed: readonly string[]): string {
  const problems = issues.map(describeIssue);
  const hasUnknown = issues.some((issue) => issue.code === 'unrecognized_keys');
  const hint = hasUnknown && allowed.length > 0 ? ` Allowed fields: ${allowed.join(', ')}.` : '';
  return `Invalid input for ${tool}: ${problems.join('; ')}.${hint}`;
}
