/**
 * A temporary project whose user scope has the loopback OAuth-protected MCP server `remote` and a finished
 * `mca mcp login remote` (MCA_BROWSER_COMMAND is the headless browser that follows the authorization redirects),
 * through the built binary. Returns the project, its environment and the sign-in file mca wrote.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runMca } from './run-mca.js';
import { tempProject } from './temp-project.js';

/** The command mca runs as its "browser" in tests: follows redirects headlessly (headless-browser.mjs). */
export const HEADLESS_BROWSER = `${process.execPath} ${fileURLToPath(new URL('./headless-browser.mjs', import.meta.url))}`;

export async function signedInProject(serverUrl: string, options: { prefix: string; apiKey: string }) {
  const project = tempProject(options.prefix);
  const env = { MCA_HOME: project.home, HOME: project.home, ANTHROPIC_API_KEY: options.apiKey };
  const added = await runMca(['mcp', 'add', '-s', 'user', '-t', 'http', 'remote', serverUrl], {
    cwd: project.root,
    env,
  });
  expect(added.code, added.stderr).toBe(0);
  const login = await runMca(['mcp', 'login', 'remote'], {
    cwd: project.root,
    env: { ...env, MCA_BROWSER_COMMAND: HEADLESS_BROWSER },
    timeoutMs: 60_000,
  });
  expect(login.code, login.stderr).toBe(0);
  const dir = join(project.home, 'mcp-auth');
  const [name] = readdirSync(dir);
  return { ...project, env, file: join(dir, name ?? '') };
}
