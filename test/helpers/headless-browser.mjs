// A stand-in for the person's browser in sign-in tests (MCA_BROWSER_COMMAND="node <this file>"): mca runs it with
// the authorization URL as the last argument. It GETs the URL and follows each redirect the way a browser would,
// which delivers the authorization server's answer to mca's loopback callback. It only ever talks to loopback
// addresses: a redirect elsewhere is refused (exit 3) and never fetched. HEADLESS_BROWSER_LOG=<file> appends each
// URL it visits, one per line, so a test can see where the flow went.
/* global fetch, AbortSignal */
import { appendFileSync } from 'node:fs';
import { URL } from 'node:url';
import process from 'node:process';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const log = process.env.HEADLESS_BROWSER_LOG;
let url = new URL(process.argv.at(-1) ?? '');

for (let hop = 0; hop < 10; hop += 1) {
  if (log) appendFileSync(log, `${url.href}\n`);
  if (!LOOPBACK.has(url.hostname)) {
    process.stderr.write(`headless-browser: refusing a non-loopback address: ${url.origin}\n`);
    process.exit(3);
  }
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(20_000) });
  await response.arrayBuffer().catch(() => undefined);
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || !location) process.exit(response.ok ? 0 : 1);
  url = new URL(location, url);
}
process.exit(2);
