/**
 * The parent's context with and without delegation, on a scripted exploration task (issue 29): the built binary
 * (`dist/`) against the loopback fake, a project of FILES source files of LINES lines each, and the question "where
 * is X handled?". Without delegation the parent reads every file itself; with delegation it hands the search to
 * the built-in Explore subagent, which reads the same files and answers in one paragraph. The model's replies are
 * scripted (the same reads, the same final answer), so the only difference is where the reads happen.
 *
 * Measured from the requests the fake received: the parent's last request of the turn, and the first request of a
 * follow-up turn (`-c`, what stays in the parent's history), in characters of system + messages and in estimated
 * tokens (characters / 3, the context engine's estimate).
 *   npm run build && npx tsx bench/delegation-bench.ts
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic, systemText, type FakeRequestBody } from '../test/helpers/fake-anthropic-server.js';
import { runMca } from '../test/helpers/run-mca.js';

const FILES = 12;
const LINES = 150;
const ANSWER = 'Payment retries are handled in src/mod-07.ts (retryPayment, lines 40-60); the others do not touch it.';

function makeProject(): { base: string; root: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), 'mca-delegation-bench-'));
  const root = join(base, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  for (let file = 0; file < FILES; file += 1) {
    const lines = Array.from(
      { length: LINES },
      (_, line) => `export const value${line} = computeSomething(${file}, ${line}); // module ${file} line ${line}`,
    );
    writeFileSync(join(root, 'src', `mod-${String(file).padStart(2, '0')}.ts`), `${lines.join('\n')}\n`);
  }
  return { base, root, home: join(base, 'home') };
}

const reads = Array.from({ length: FILES }, (_, file) => ({
  name: 'Read',
  input: { path: `src/mod-${String(file).padStart(2, '0')}.ts` },
}));

function size(body: FakeRequestBody): { chars: number; tokens: number } {
  const chars = systemText(body).length + JSON.stringify(body.messages ?? []).length;
  return { chars, tokens: Math.floor(chars / 3) };
}

async function scenario(delegate: boolean): Promise<{ turnEnd: number; followUp: number; requests: number }> {
  const { base, root, home } = makeProject();
  const parent: FakeRequestBody[] = [];
  let parentIndex = 0;
  let subIndex = 0;
  const step = (body: FakeRequestBody) => {
    if (systemText(body).includes('You are Explore')) {
      subIndex += 1;
      return subIndex === 1 ? { text: 'Reading.', calls: reads } : { text: ANSWER };
    }
    parent.push(body);
    parentIndex += 1;
    if (parentIndex === 1) {
      return delegate
        ? {
            text: 'Delegating.',
            calls: [
              {
                name: 'Agent',
                input: {
                  subagent_type: 'Explore',
                  description: 'find payment retries',
                  prompt: 'Where are payment retries handled?',
                },
              },
            ],
          }
        : { text: 'Reading.', calls: reads };
    }
    if (parentIndex === 2) return { text: ANSWER };
    return { text: 'Follow-up answered.' };
  };
  const server = await startFakeAnthropic(Array.from({ length: 10 }, () => step));
  const env = { ANTHROPIC_API_KEY: 'sk-ant-bench-delegation-0000', ANTHROPIC_BASE_URL: server.url, MCA_HOME: home };
  try {
    await runMca(['-p', 'Where are payment retries handled?'], { cwd: root, env });
    const turnEnd = size(parent[1]!).tokens;
    await runMca(['-c', '-p', 'Thanks. Anything else?'], { cwd: root, env });
    const followUp = size(parent[2]!).tokens;
    return { turnEnd, followUp, requests: parent.length + subIndex };
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
}

const direct = await scenario(false);
const delegated = await scenario(true);
process.stdout.write(
  [
    `exploration task: ${FILES} files x ${LINES} lines, parent context in estimated tokens (chars / 3)`,
    `| | parent, last request of the turn | parent, first request of the follow-up turn | model requests |`,
    `|---|---|---|---|`,
    `| parent reads the files itself | ${direct.turnEnd} | ${direct.followUp} | ${direct.requests} |`,
    `| parent delegates to Explore | ${delegated.turnEnd} | ${delegated.followUp} | ${delegated.requests} |`,
    '',
  ].join('\n'),
);
