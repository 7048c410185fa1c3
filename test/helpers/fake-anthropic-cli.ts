/**
 * Starts the fake Anthropic server from a JSON script for tmux e2e tests and benchmarks.
 *   tsx test/helpers/fake-anthropic-cli.ts <script.json> [--loop] [--api-key KEY]
 * The script file holds an array of plain steps (see fake-anthropic-steps.ts). Prints the base URL as the
 * first stdout line, then runs until SIGINT/SIGTERM. With --requests-log FILE every request body is
 * appended to FILE as one JSON line.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { startFakeAnthropic, type FakeAnthropicOptions, type FakePlainStep } from './fake-anthropic-server.js';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: fake-anthropic-cli <script.json> [--loop] [--api-key KEY] [--requests-log FILE]\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
const file = args.find(
  (arg, index) => !arg.startsWith('--') && !['--api-key', '--requests-log'].includes(args[index - 1] ?? ''),
);
if (!file) usage('missing script file');
const valueOf = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};

let script: FakePlainStep[];
try {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) usage(`${file} must contain a JSON array of steps`);
  script = parsed as FakePlainStep[];
} catch (error) {
  usage(`cannot read ${file}: ${(error as Error).message}`);
}

const options: FakeAnthropicOptions = { loop: args.includes('--loop') };
const apiKey = valueOf('--api-key');
if (apiKey !== undefined) options.apiKey = apiKey;
const log = valueOf('--requests-log');

const server = await startFakeAnthropic(
  script.map((step) =>
    log === undefined
      ? step
      : (body) => {
          appendFileSync(log, `${JSON.stringify(body)}\n`);
          return step;
        },
  ),
  options,
);
process.stdout.write(`${server.url}\n`);

const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
