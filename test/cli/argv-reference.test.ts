/**
 * The command line as users see it, pinned before the parser changed (issue 42: commander replaced by
 * node:util's parseArgs). Two tables, each checked against a golden file written once from the commander build:
 * what the BUILT binary prints and exits with for help texts, usage errors and `--version`; and what parseCliArgs
 * makes of each argv (or the one error line it throws). Regenerate only on purpose: MCA_UPDATE_ARGV_GOLDEN=1.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/cli/program.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProjectWithUserHome } from '../helpers/temp-project.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const UPDATE = process.env['MCA_UPDATE_ARGV_GOLDEN'] === '1';

/** argv → stdout, stderr and exit code of the built binary (no key, no network: all end before a request). */
const BINARY_CASES: string[][] = [
  ['--help'],
  ['-h'],
  ['-p', '--help'],
  ['--version'],
  ['-v'],
  ['--bogus'],
  ['-x'],
  ['--model'],
  ['-p', 'hi', '--model'],
  ['--output-format', 'xml'],
  ['--output-format=xml'],
  ['--permission-mode', 'sometimes'],
  ['--tool-protocol', 'json'],
  ['--input-format', 'yaml'],
  ['--max-steps', '0'],
  ['--max-steps', 'two'],
  ['--session-id', 'not-a-uuid'],
  ['--print=yes'],
  ['--settings', 'x.json'],
  ['-c', '-r', 'abc'],
  ['-p', '-r'],
  ['--acp', '-p', 'hi'],
  ['--modle', 'x'],
  ['--verbos'],
  ['--allowed-tool', 'Read'],
  ['--sandbx'],
  ['--no-sandbox=1'],
  ['--verbose=1'],
  ['--help=x'],
  ['--bogus', '--help'],
  ['hi', '--help'],
  ['-ph'],
  ['-pv'],
  ['-p', '-v'],
  ['-xp'],
  ['-p', '-x'],
  ['--output-format', 'xml', '--help'],
  ['--max-steps', '-5'],
  ['--tools'],
  ['--add-dir'],
  ['mcp', '--help'],
  ['mcp'],
  ['mcp', 'bogus'],
  ['mcp', 'add', '--help'],
  ['mcp', 'add-json', '--help'],
  ['mcp', 'get'],
  ['mcp', 'get', 'a', 'b'],
  ['mcp', 'remove', '--help'],
  ['mcp', 'add', 'x', 'y', '-t', 'ftp'],
  ['mcp', 'remove', 'x', '-s', 'galaxy'],
  ['mcp', 'list', '--bogus'],
  ['mcp', 'help'],
  ['mcp', 'help', 'add'],
  ['mcp', 'help', 'bogus'],
  ['mcp', '-h'],
  ['mcp', '--bogus'],
  ['mcp', 'list', '--help'],
  ['mcp', 'get', '--help'],
  ['mcp', 'login', '--help'],
  ['mcp', 'logout', '-h'],
  ['mcp', 'lst'],
  ['mcp', 'ad'],
  ['mcp', 'add'],
  ['mcp', 'add', 'x'],
  ['mcp', 'add', 'x', 'y', '--scpe', 'user'],
  ['mcp', 'add', '-s'],
  ['mcp', 'remove'],
  ['mcp', 'list', 'extra'],
  ['mcp', 'add-json', 'x'],
  ['mcp', 'add-json', 'x', '{', 'y'],
  ['mcp', 'get', 'x', '--', '--help'],
  ['plugin', '--help'],
  ['plugins', '--help'],
  ['doctor', '--help'],
  ['rewind', '--help'],
];

/** argv → the CliOptions parseCliArgs returns (paths made relative to <cwd>), or its error line. */
const PARSE_CASES: string[][] = [
  [],
  ['hello', 'world'],
  ['-p', 'hello'],
  ['-p'],
  ['hello', '-p', '--model', 'm1'],
  ['-p', 'a', '--', '--not-a-flag', '-p'],
  ['--', 'x', 'y'],
  ['--model=m2', '-p', 'q'],
  ['--model', 'a', '--model', 'b'],
  ['--allowedTools', 'Bash(npm test:*) Edit', '--allowed-tools', 'Read'],
  ['--allowedTools=Read', '--disallowedTools', 'Bash(git push:*)', '--disallowed-tools=Write'],
  ['--add-dir', 'a', 'b', '-p', 'q'],
  ['--add-dir', 'a', 'b', '--add-dir', 'c'],
  ['--add-dir=a', 'b'],
  ['--add-dir', '~', '~/x'],
  ['--plugin-dir', 'p1', 'p2'],
  ['--tools', 'Bash,Read', 'Grep'],
  ['--tools', ''],
  ['--tools', 'default'],
  ['--mcp-config', 'a.json', '--mcp-config', '{"mcpServers":{}}', '--strict-mcp-config'],
  ['--mcp-config', 'a.json', 'b.json'],
  ['--sandbox'],
  ['--no-sandbox'],
  ['--sandbox', '--no-sandbox'],
  ['--no-sandbox', '--sandbox'],
  ['--no-session-persistence', '-p', 'x'],
  ['-r'],
  ['-r', 'abc123'],
  ['--resume=abc123'],
  ['-r', '-p', 'x'],
  ['-c', '-p', 'again'],
  ['-w'],
  ['-w', 'feature'],
  ['--worktree=feature', 'task'],
  ['-pc', 'x'],
  ['--max-steps', '7', '-p', 'x'],
  ['--max-steps=3', '--max-turns', '5', '-p', 'x'],
  ['--max-turns', '0', '-p', 'x'],
  ['--output-format', 'json', '-p', 'x'],
  ['--output-format', 'stream-json', '-p', 'x'],
  ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '-p'],
  ['--input-format', 'stream-json', '-p'],
  ['--include-partial-messages', '-p', 'x'],
  ['--permission-mode', 'plan', '-p', 'x'],
  ['--dangerously-skip-permissions', '-p', 'x'],
  ['--dangerously-skip-permissions', '--permission-mode', 'plan'],
  ['--tool-protocol=text', 'x'],
  ['--cwd', '/tmp', '-p', 'x'],
  ['--agents', '{"r":{"description":"d","prompt":"p"}}', 'x'],
  ['--agent', 'reviewer', 'x'],
  ['--session-id', 'ABCDEF01-2345-6789-abcd-ef0123456789', '-p', 'x'],
  ['--fork-session', '-p', 'x'],
  ['--fork-session', '-c', '-p', 'x'],
  ['--session-id', 'abcdef01-2345-6789-abcd-ef0123456789', '-c'],
  ['--system-prompt', 'be brief', '--append-system-prompt', 'also kind', 'x'],
  ['--system-prompt', 'a', '--system-prompt-file', 'b'],
  ['--system-prompt-file', '/nonexistent/prompt.txt'],
  ['--json-schema', '{"type":"object"}', '-p', 'x'],
  ['--json-schema', '[1]', '-p', 'x'],
  ['--json-schema', '{', '-p', 'x'],
  ['--max-budget-usd', '0.5', '-p', 'x'],
  ['--max-budget-usd', '-1', '-p', 'x'],
  ['--setting-sources', 'user,project', 'x'],
  ['--setting-sources', 'user,cloud', 'x'],
  ['--permission-prompt-tool', 'stdio', '--fallback-model', 'm3', '--allow-dangerously-skip-permissions', 'x'],
  ['--include-hook-events', '--replay-user-messages', 'x'],
  ['--debug', '--betas', 'b1', '--effort=high', '--no-optional-locks', '--title', 'x'],
  ['--debug-file', '-p', 'x'],
  ['--await-initialize', '--session-mirror', '--debug-to-stderr', '--max-thinking-tokens', '9', 'x'],
  ['--thinking-display', 'full', '--task-budget', '3', 'x'],
  ['--settings', 'x.json'],
  ['--settings'],
  ['--ide'],
  ['--plugin-dir-no-mcp', 'x'],
  ['--acp'],
  ['--model', '--print'],
  ['-rabc'],
  ['-wfeat', 'go'],
  ['-r', '--', 'x'],
  ['--add-dir', 'a', '--', 'b'],
  ['--add-dir', '--model', 'x'],
  ['-', '-p'],
  ['--output-format', 'json', 'extra', 'words', '-p'],
  ['--debug-file=x', '--settings=y'],
  ['--', '--bogus'],
  ['-p', '--', '--help'],
  ['--max-turns', 'x'],
  ['--modle', 'x'],
  ['--dissallowedTools', 'x'],
  ['--bogus'],
  ['--model'],
  ['--output-format', 'xml'],
];

function scrub(text: string): string {
  return text.split(process.cwd()).join('<cwd>');
}

function parsed(args: string[]): unknown {
  try {
    return JSON.parse(scrub(JSON.stringify(parseCliArgs(args, '9.9.9'))));
  } catch (error) {
    return { error: scrub(error instanceof Error ? error.message : String(error)) };
  }
}

function golden(name: string, actual: unknown): void {
  const file = join(FIXTURES, name);
  if (UPDATE || !existsSync(file)) writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

describe('the command line as users see it', () => {
  it('the built binary prints the same help, version and error lines, with the same exit codes', async () => {
    const results: Record<string, { stdout: string; stderr: string; code: number | null }> = {};
    for (const args of BINARY_CASES) {
      const run = await runMca(args, { env: { ANTHROPIC_API_KEY: undefined, MCA_HOME: '/nonexistent/mca-home' } });
      results[JSON.stringify(args)] = {
        stdout: run.stdout.replace(/^\d+\.\d+\.\d+\S* \(mca\)$/m, '<version> (mca)'),
        stderr: run.stderr,
        code: run.code,
      };
    }
    golden('argv-binary.json', results);
  }, 120_000);

  it('`mca mcp` adds, shows and removes servers from the same words', async () => {
    const made = tempProjectWithUserHome('mca-argv-mcp-');
    const steps: string[][] = [
      ['mcp', 'add', 'one', '--', 'node', 'server.js', '-x', '--y'],
      ['mcp', 'add', '-s', 'project', '-e', 'A=1', '-e', 'B=2', 'two', 'cmd', 'arg'],
      ['mcp', 'add', 'three', '-t', 'http', 'https://example.test/mcp', '-H', 'X-A: 1', '--client-id', 'cid'],
      ['mcp', 'add', '--transport=sse', 'four', 'https://example.test/sse', '--header', 'Y: 2', '--callback-port=8123'],
      ['mcp', 'add-json', 'five', '{"type":"stdio","command":"x","args":["-v"]}', '-s', 'user'],
      ['mcp', 'add', '--scope=user', 'six', 'cmd', '--', '-a'],
      ['mcp', 'get', 'one'],
      ['mcp', 'get', 'two'],
      ['mcp', 'get', 'three'],
      ['mcp', 'get', 'four'],
      ['mcp', 'get', 'five'],
      ['mcp', 'get', 'six'],
      ['mcp', 'add', 'one', 'x'],
      ['mcp', 'add', '-e', 'BAD', 'seven', 'cmd'],
      ['mcp', 'add-json', 'eight', '[1]'],
      ['mcp', 'remove', 'five'],
      ['mcp', 'remove', '-s', 'local', 'one'],
      ['mcp', 'remove', 'nope'],
      ['mcp', 'get', 'one'],
    ];
    const results: Record<string, { stdout: string; stderr: string; code: number | null }> = {};
    const base = dirname(made.root);
    for (const [index, args] of steps.entries()) {
      const run = await runMca(args, { cwd: made.root, env: { MCA_HOME: made.home, HOME: made.userHome } });
      const clean = (text: string): string => text.split(base).join('<tmp>');
      // Keyed by step as well: the same words run twice (`mca mcp get one` before and after its removal).
      results[`${index + 1} ${JSON.stringify(args)}`] = {
        stdout: clean(run.stdout),
        stderr: clean(run.stderr),
        code: run.code,
      };
    }
    golden('argv-mcp.json', results);
  }, 120_000);

  it('parseCliArgs makes the same options of each argv, or throws the same line', () => {
    const results: Record<string, unknown> = {};
    for (const args of PARSE_CASES) results[JSON.stringify(args)] = parsed(args);
    golden('argv-parse.json', results);
  });
});
