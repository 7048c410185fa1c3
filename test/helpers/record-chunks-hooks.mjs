// Loader hooks of record-chunks.mjs (they run on Node's loader thread): each loaded module's URL is appended to
// the file named at registration, with the epoch time in ms, as `<ms> <url>`.
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${(performance.timeOrigin + performance.now()).toFixed(1)} ${url}\n`);
  return nextLoad(url, context);
}
