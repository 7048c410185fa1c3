/**
 * The JSON argument of a text-protocol action, read the way real models write it: the object is found by a
 * string-aware bracket scan (so text after the action and brackets inside strings do no harm), parsed strictly
 * when possible and repaired (raw newlines in strings, trailing commas, single quotes, a missing brace) with
 * `jsonrepair` before it is refused. Nesting deeper than MAX_ACTION_DEPTH is refused before any parser sees it,
 * so a hostile reply cannot exhaust the stack. The caller passes the repair function: it is loaded only for a
 * reply whose JSON is broken (react-protocol.ts `parseReplyRepairing`).
 */

export const MAX_ACTION_DEPTH = 64;

/** jsonrepair's `jsonrepair`: broken JSON text in, valid JSON text out (throws when it cannot). */
export type JsonRepair = (text: string) => string;

export type ActionJson =
  | {
      value: Record<string, unknown>;
      /** True when the text was not valid JSON as written and jsonrepair fixed it. */
      repaired: boolean;
    }
  | {
      error: string;
      /** No candidate was valid JSON and no repair function was given: with one, it may still parse. */
      repairable?: true;
    };

/**
 * Scans JSON-like text from `start`, skipping string contents: the deepest bracket nesting (counting stops past
 * the limit) and, when `stopAtBalance`, the index of the bracket that closes the first value.
 */
function scan(text: string, start: number, stopAtBalance: boolean): { end?: number; depth: number } {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      depth += 1;
      deepest = Math.max(deepest, depth);
      if (deepest > MAX_ACTION_DEPTH) return { depth: deepest };
    } else if (char === '}' || char === ']') {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && stopAtBalance) return { end: index, depth: deepest };
    }
  }
  return { depth: deepest };
}

/** Where the JSON value opening at `start` closes (undefined when it never does or nests too deep). */
export function balancedEnd(text: string, start: number): number | undefined {
  return scan(text, start, true).end;
}

function nestingDepth(text: string): number {
  return scan(text, 0, false).depth;
}

function strictParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function repairedParse(text: string, jsonrepair: JsonRepair): unknown {
  try {
    return JSON.parse(jsonrepair(text)) as unknown;
  } catch {
    return undefined;
  }
}

function strictError(text: string): string {
  try {
    JSON.parse(text);
    return 'unknown error';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Parses the first candidate that is valid JSON, else (given `repair`) the first that jsonrepair can fix.
 * Candidates are tried in the caller's order of trust (the bracket-scanned object first).
 */
export function parseActionJson(candidates: readonly string[], repair?: JsonRepair): ActionJson {
  const texts = [...new Set(candidates.map((candidate) => candidate.trim()))].filter((text) => text !== '');
  if (texts.length === 0) return { value: {}, repaired: false };
  for (const text of texts) {
    if (nestingDepth(text) > MAX_ACTION_DEPTH) {
      return { error: `the action input is nested more than ${MAX_ACTION_DEPTH} levels deep` };
    }
  }
  let value: unknown;
  let repaired = false;
  for (const text of texts) {
    value = strictParse(text);
    if (value !== undefined) break;
  }
  if (value === undefined && repair === undefined) {
    return { error: `the action input is not valid JSON (${strictError(texts[0] ?? '')})`, repairable: true };
  }
  if (value === undefined && repair !== undefined) {
    for (const text of texts) {
      value = repairedParse(text, repair);
      if (value !== undefined) {
        repaired = true;
        break;
      }
    }
  }
  if (value === undefined) {
    return { error: `the action input is not valid JSON (${strictError(texts[0] ?? '')})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'the action input must be a JSON object like {"path": "src/a.ts"}' };
  }
  return { value: value as Record<string, unknown>, repaired };
}
