/**
 * ripgrep's --json output read in bounded memory. One match event holds the whole matched line and every
 * submatch, so a 13 MB minified line becomes a JSON line of hundreds of megabytes, past V8's string limit
 * (--max-columns does not apply to --json). Lines up to MAX_EVENT_BYTES are parsed whole; a longer one keeps only
 * its head (path and the start of the line's text) and is scanned as it streams by for its line number.
 */
import type { Readable } from 'node:stream';

export const MAX_EVENT_BYTES = 1024 * 1024;
/** Characters of an overlong line's text decoded from its head (the model sees at most ~300). */
const TEXT_PREFIX_CHARS = 2048;
const NEWLINE = 0x0a;
/** Inside a JSON string every quote is escaped, so this sequence can only be the key after `lines`. */
const LINE_NUMBER_KEY = /\},"line_number":(\d+)[,}]/;

export interface RgMatchEvent {
  path: string;
  lineNumber: number;
  text: string;
}

interface RgText {
  text?: string;
  bytes?: string;
}

export function decodeRgText(value: RgText | undefined): string {
  if (!value) return '';
  if (typeof value.text === 'string') return value.text;
  return value.bytes ? Buffer.from(value.bytes, 'base64').toString('utf8') : '';
}

/** The string value that starts `json` (a JSON string body cut anywhere), decoded as far as it is whole. */
function stringPrefix(body: string): string {
  const whole = /^(?:[^"\\]|\\.)*/.exec(body)?.[0] ?? '';
  const safe = whole.slice(0, TEXT_PREFIX_CHARS).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${safe}"`) as string;
  } catch {
    return '';
  }
}

function fieldOf(head: string, key: string): string | undefined {
  const at = head.indexOf(`"${key}":{`);
  if (at === -1) return undefined;
  const rest = head.slice(at + key.length + 4);
  if (rest.startsWith('"text":"')) return stringPrefix(rest.slice(8));
  if (rest.startsWith('"bytes":"')) {
    const base64 = /^[A-Za-z0-9+/=]*/.exec(rest.slice(9))?.[0] ?? '';
    return Buffer.from(base64.slice(0, base64.length - (base64.length % 4)), 'base64').toString('utf8');
  }
  return undefined;
}

function parseWhole(line: string): RgMatchEvent | undefined {
  const event = JSON.parse(line) as { data: { path: RgText; lines: RgText; line_number: number } };
  return {
    path: decodeRgText(event.data.path),
    lineNumber: event.data.line_number,
    text: decodeRgText(event.data.lines),
  };
}

function parseOverlong(head: Buffer, lineNumber: number | undefined): RgMatchEvent | undefined {
  const text = head.toString('utf8');
  if (!text.startsWith('{"type":"match"')) return undefined;
  const path = fieldOf(text, 'path');
  if (path === undefined || lineNumber === undefined) return undefined;
  return { path, lineNumber, text: fieldOf(text, 'lines') ?? '' };
}

/** The match events of ripgrep's --json output; other events and unreadable lines are skipped. */
export async function* rgMatchEvents(stdout: Readable): AsyncGenerator<RgMatchEvent> {
  let parts: Buffer[] = [];
  let size = 0;
  let overlong = false;
  let window = '';
  let lineNumber: number | undefined;
  const scan = (bytes: Buffer): void => {
    if (lineNumber !== undefined) return;
    const hay = window + bytes.toString('latin1');
    const found = LINE_NUMBER_KEY.exec(hay);
    if (found?.[1]) lineNumber = Number(found[1]);
    window = hay.slice(-64);
  };
  const take = (segment: Buffer): void => {
    if (!overlong && size + segment.length <= MAX_EVENT_BYTES) {
      parts.push(segment);
      size += segment.length;
      return;
    }
    if (!overlong) {
      const room = MAX_EVENT_BYTES - size;
      parts.push(segment.subarray(0, room));
      size += room;
      overlong = true;
      scan(Buffer.concat(parts));
      scan(segment.subarray(room));
      return;
    }
    scan(segment);
  };
  const finish = (): RgMatchEvent | undefined => {
    const line = Buffer.concat(parts);
    const wasOverlong = overlong;
    const found = lineNumber;
    parts = [];
    size = 0;
    overlong = false;
    window = '';
    lineNumber = undefined;
    if (wasOverlong) return parseOverlong(line, found);
    if (line.subarray(0, 15).toString('latin1') !== '{"type":"match"') return undefined;
    try {
      return parseWhole(line.toString('utf8'));
    } catch {
      return undefined;
    }
  };
  for await (const chunk of stdout) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (;;) {
      const newline = buffer.indexOf(NEWLINE, start);
      if (newline === -1) {
        if (start < buffer.length) take(buffer.subarray(start));
        break;
      }
      take(buffer.subarray(start, newline));
      const event = finish();
      if (event) yield event;
      start = newline + 1;
    }
  }
  const last = finish();
  if (last) yield last;
}
