/**
 * Issue 23, class 9: a 13 MB one-line minified file, searched with a pattern that matches almost every character.
 * ripgrep's --json event for that line is some 600 MB (every submatch is listed), longer than V8's longest string,
 * so reading it as one line crashed mca with an uncaught RangeError. Through the built binary, with ripgrep and
 * with the JS engine: the run ends normally and the model gets the match with its line cut. Slow (rg writes the
 * whole event through the pipe): runs only in `npm run test:reliability`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../helpers/fake-anthropic-server.js';
import { findRipgrep } from '../../../src/tools/grep/grep-ripgrep.js';
import { act, finish, makeSandbox, runMca } from '../harness.js';
import { ResultLog } from '../results.js';

const log = new ResultLog('walks-long');
const order: string[] = [];
const ENGINES = findRipgrep() === undefined ? (['js'] as const) : (['ripgrep', 'js'] as const);

describe('a 13 MB one-line file', () => {
  afterAll(() => log.write(order));
  for (const engine of ENGINES) {
    for (const pattern of ['a', '[a-z]']) {
      const fault = `Grep /${pattern}/ over a 13 MB one-line minified file (${engine})`;
      order.push(fault);
      it(fault, { timeout: 300_000 }, async () => {
        const sandbox = await makeSandbox('mca-bigline');
        const server = await startFakeAnthropic([act('Grep', { pattern, include: '*.js' }), finish('done')]);
        try {
          await log.track('crashes on big honest input', fault, async () => {
            writeFileSync(join(sandbox.project, 'bundle.min.js'), `var a="${'a'.repeat(13 * 1024 * 1024)}";\n`);
            const result = await runMca(sandbox, ['-p', 'search'], {
              baseUrl: server.url,
              env: { MCA_GREP_ENGINE: engine },
              timeoutMs: 240_000,
            });
            expect(result.code, result.stderr).toBe(0);
            expect(result.stderr).not.toContain('RangeError');
            const sent = JSON.stringify(server.requests[1]?.body ?? '');
            expect(sent).toMatch(/bundle\.min\.js\\n {2}1: var a=\\"aaaa/);
            expect(sent.length).toBeLessThan(200_000);
            return 'exit 0; the model gets bundle.min.js line 1 cut to 300 characters';
          });
        } finally {
          await server.close();
          await sandbox.cleanup();
        }
      });
    }
  }
});
