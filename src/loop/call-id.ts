/**
 * Ids for tool calls the text protocol parses (native tool use brings the API's own `toolu_…` ids): the same
 * shape, 24 random base62 characters after the prefix, so every consumer (events, history, session files, hooks)
 * handles one kind of id. 143 random bits: unique within a session (and far beyond) without a registry of ids.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 24;

export function newCallId(): string {
  const bytes = randomBytes(LENGTH * 2);
  let id = 'toolu_';
  // Two bytes per character keep the modulo bias below 0.1%.
  for (let index = 0; index < LENGTH; index += 1) id += ALPHABET[bytes.readUInt16BE(index * 2) % ALPHABET.length];
  return id;
}
