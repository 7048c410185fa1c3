/**
 * mca's `system`/`init` line against Claude Code's for the same setup (test/fixtures/claude-code-stream/init.json,
 * captured from its 2.1.332 binary with test/helpers/capture-init.ts): a project with a custom command, a skill and a
 * subagent, and a `--plugin-dir` plugin with its own command, skill, subagent and MCP server. In `-p "prompt"` mode,
 * in stream-json input mode, and with `--strict-mcp-config`, the setup's commands, skills, agents, MCP servers (with
 * their `source`), MCP tools, plugin entry (with its `version`) and output style are those Claude Code reports, and
 * every key mca sends has Claude Code's type. On the old tree `-p` listed no slash_commands, servers had no `source`,
 * the plugin no `version`, and `--strict-mcp-config` still started the plugin's server.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initFacts, initOf, runInit, type InitMode } from '../helpers/capture-init.js';
import { shapesOf, type Shape } from '../helpers/stream-shapes.js';

interface Golden {
  facts: Record<string, ReturnType<typeof initFacts>>;
  shapes: Record<string, Shape>;
}

const golden = JSON.parse(
  readFileSync(new URL('../fixtures/claude-code-stream/init.json', import.meta.url), 'utf8'),
) as Golden;

const CASES: Array<[name: string, mode: InitMode, flags: string[]]> = [
  ['print', 'print', []],
  ['input', 'input', []],
  ['print-strict-mcp-config', 'print', ['--strict-mcp-config']],
];

describe("system/init as Claude Code's", () => {
  it.each(CASES)(
    '%s: the setup is reported as Claude Code reports it',
    async (name, mode, flags) => {
      const run = await runInit('mca', mode, flags);
      expect(run.code, run.stderr).toBe(0);
      const init = initOf(run.lines);
      expect(initFacts(init, run.plugin)).toEqual(golden.facts[name]);
      const theirs = golden.shapes[name] ?? {};
      for (const [key, types] of Object.entries(shapesOf([init])['system/init'] ?? {}))
        expect(theirs[key], key).toEqual(types);
    },
    60_000,
  );
});
