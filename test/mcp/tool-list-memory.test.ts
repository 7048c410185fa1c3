/**
 * The remembered MCP tool lists (src/mcp/tool-list-memory.ts): what is stored under MCA_HOME, under which key, and
 * what a damaged entry reads as. The end-to-end behaviour (the first request goes with the list) is in
 * test/e2e/mcp.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../../src/mcp/server-config.js';
import { ToolListMemory, type RememberedTools } from '../../src/mcp/tool-list-memory.js';

const SECRET = 'sk-secret-token-0123456789';
const server: StdioServerConfig = {
  name: 'docs',
  scope: 'user',
  source: 'settings.json',
  type: 'stdio',
  command: 'node',
  args: ['server.js'],
  env: { API_TOKEN: SECRET },
};
const listing: RememberedTools = {
  version: 'docs@1.0.0',
  dropped: 0,
  tools: [{ name: 'search', inputSchema: { type: 'object' } }],
};

function home(): string {
  return mkdtempSync(join(tmpdir(), 'mca-tool-memory-'));
}

function entryFile(mcaHome: string): string {
  const dir = join(mcaHome, 'mcp-tools');
  const [name] = readdirSync(dir);
  return join(dir, name ?? '');
}

describe('ToolListMemory', () => {
  it('remembers a listing privately (0600) without the configuration, and recalls it for the same server and project', () => {
    const mcaHome = home();
    const memory = new ToolListMemory(mcaHome, '/project');
    expect(memory.recall(server)).toBeUndefined();
    expect(memory.remember(server, listing, undefined)).toBe(true);
    const file = entryFile(mcaHome);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    expect(new ToolListMemory(mcaHome, '/project').recall(server)).toEqual(listing);
  });

  it('another environment, command line or project is another server: nothing recalled', () => {
    const mcaHome = home();
    new ToolListMemory(mcaHome, '/project').remember(server, listing, undefined);
    expect(new ToolListMemory(mcaHome, '/other').recall(server)).toBeUndefined();
    const memory = new ToolListMemory(mcaHome, '/project');
    expect(memory.recall({ ...server, env: { API_TOKEN: 'another' } })).toBeUndefined();
    expect(memory.recall({ ...server, args: ['server.js', '--beta'] })).toBeUndefined();
    // The name, scope and source file do not decide what the server offers.
    expect(memory.recall({ ...server, name: 'renamed', scope: 'project', source: '.mcp.json' })).toEqual(listing);
  });

  it('the same listing and version is not written again; a changed one replaces the entry', () => {
    const mcaHome = home();
    const memory = new ToolListMemory(mcaHome, '/project');
    memory.remember(server, listing, undefined);
    expect(memory.remember(server, listing, listing)).toBe(false);
    const changed: RememberedTools = { ...listing, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] };
    expect(memory.remember(server, changed, listing)).toBe(true);
    expect(memory.recall(server)).toEqual(changed);
    const newer = { ...changed, version: 'docs@1.1.0' };
    expect(memory.remember(server, newer, changed)).toBe(true);
    expect(memory.recall(server)?.version).toBe('docs@1.1.0');
  });

  it('a damaged entry is no entry', () => {
    const mcaHome = home();
    const memory = new ToolListMemory(mcaHome, '/project');
    memory.remember(server, listing, undefined);
    const file = entryFile(mcaHome);
    for (const text of ['{"format":1,"version":"x","tools":[{"nam', '{"format":2,"version":"x","tools":[]}', '[]']) {
      writeFileSync(file, text);
      expect(memory.recall(server), text).toBeUndefined();
    }
    writeFileSync(file, JSON.stringify({ format: 1, version: 'x', tools: [{ description: 'no name' }] }));
    expect(memory.recall(server)).toBeUndefined();
  });
});
