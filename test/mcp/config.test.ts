import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateOf, readApprovals } from '../../src/mcp/approval.js';
import { loadMcpConfig } from '../../src/mcp/config-sources.js';
import { expandVars } from '../../src/mcp/expand-vars.js';
import { describeServer, parseServerConfig } from '../../src/mcp/server-config.js';
import { mcpToolName } from '../../src/mcp/tool-names.js';

function dirs() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mca-mcp-config-')));
  const project = join(base, 'project');
  const home = join(base, 'home');
  const mcaHome = join(base, 'mca-home');
  for (const dir of [project, home, mcaHome]) mkdirSync(dir, { recursive: true });
  return { project, home, mcaHome };
}

const where = { scope: 'user' as const, source: 'test.json' };

describe('${VAR} expansion', () => {
  it('expands ${VAR} and ${VAR:-default}, leaves $VAR, reports a missing one', () => {
    const env = { HOST: 'h', EMPTY: '' };
    expect(expandVars('${HOST}:${PORT:-80}/$HOST', env)).toEqual({ value: 'h:80/$HOST', missing: [] });
    expect(expandVars('${EMPTY:-d}', env).value).toBe('d');
    expect(expandVars('a ${NOPE} b', env)).toEqual({ value: 'a ${NOPE} b', missing: ['NOPE'] });
  });

  it('expands command, args, env, url and headers', () => {
    const env = { BIN: 'node', TOKEN: 't0k', BASE: 'http://127.0.0.1:9' };
    const stdio = parseServerConfig('s', { command: '${BIN}', args: ['${X:-x}'], env: { A: '${TOKEN}' } }, where, env);
    expect(stdio.ok && stdio.config).toMatchObject({ type: 'stdio', command: 'node', args: ['x'], env: { A: 't0k' } });
    const http = parseServerConfig(
      'h',
      { type: 'http', url: '${BASE}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
      where,
      env,
    );
    expect(http.ok && http.config).toMatchObject({
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer t0k' },
    });
  });

  it('refuses bad shapes with one message each', () => {
    const bad: unknown[] = [
      null,
      { command: '' },
      { command: 'x', args: [1] },
      { type: 'http', url: 'ftp://x' },
      { type: 'ws', url: 'http://x' },
      { command: 'x', env: { A: 1 } },
      { command: 'x', timeout: -1 },
      { command: '${MISSING_VAR_FOR_TEST}' },
    ];
    for (const raw of bad) {
      const parsed = parseServerConfig('s', raw, where, {});
      expect(parsed.ok).toBe(false);
    }
  });

  it("reads Claude Code's oauth entry of a remote server and refuses a bad one with one message", () => {
    const good = parseServerConfig(
      's',
      { type: 'http', url: 'https://x/mcp', oauth: { clientId: 'c', callbackPort: 8080, scopes: ' a b ', other: 1 } },
      where,
      {},
    );
    expect(good.ok && good.config.type === 'http' ? good.config.oauth : undefined).toEqual({
      clientId: 'c',
      callbackPort: 8080,
      scopes: 'a b',
    });
    const messages = [
      { oauth: 'x' },
      { oauth: { clientId: '' } },
      { oauth: { callbackPort: 70000 } },
      { oauth: { callbackPort: 80.5 } },
      { oauth: { scopes: 3 } },
    ].map((extra) => {
      const parsed = parseServerConfig('s', { type: 'http', url: 'https://x/mcp', ...extra }, where, {});
      return parsed.ok ? 'accepted' : parsed.message;
    });
    expect(messages).toEqual([
      '"oauth" must be an object',
      '"oauth.clientId" must be a non-empty string',
      '"oauth.callbackPort" must be a port number (1-65535)',
      '"oauth.callbackPort" must be a port number (1-65535)',
      '"oauth.scopes" must be a non-empty string of space-separated scopes',
    ]);
  });

  it('describes a server as its command line', () => {
    const parsed = parseServerConfig('s', { command: 'npx', args: ['-y', 'a b'] }, where, {});
    expect(parsed.ok && describeServer(parsed.config)).toBe("npx -y 'a b'");
  });
});

describe('loadMcpConfig', () => {
  it("reads user, local, project and flag scopes with local > project > user, flags on top; a project server never takes a name of the user's own", () => {
    const { project, home, mcaHome } = dirs();
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({
        mcpServers: { shared: { command: 'user-shared' }, onlyUser: { command: 'u' } },
        projects: { [project]: { mcpServers: { shared: { command: 'local-shared' } } } },
      }),
    );
    writeFileSync(
      join(mcaHome, 'mcp.json'),
      JSON.stringify({ mcpServers: { mine: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } }),
    );
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { shared: { command: 'project-shared' }, proj: { command: 'p' } } }),
    );
    const loaded = loadMcpConfig({
      projectRoot: project,
      mcaHome,
      home,
      env: {},
      mcpConfigs: ['{"mcpServers":{"flagged":{"command":"f"}}}'],
    });
    expect(loaded.notices).toEqual([expect.stringContaining('.mcp.json server "shared" is ignored')]);
    const byName = Object.fromEntries(loaded.servers.map((server) => [server.name, server]));
    expect(byName.shared).toMatchObject({ scope: 'local', command: 'local-shared' });
    expect(byName.onlyUser).toMatchObject({ scope: 'user' });
    expect(byName.mine).toMatchObject({ scope: 'user', type: 'sse' });
    expect(byName.proj).toMatchObject({ scope: 'project' });
    expect(byName.flagged).toMatchObject({ scope: 'flag' });
  });

  it('--strict-mcp-config uses only the flags; broken files and entries are one notice each', () => {
    const { project, home, mcaHome } = dirs();
    writeFileSync(join(project, '.mcp.json'), '{not json');
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { bad: { command: 3 } } }));
    const file = join(project, 'extra.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { viaFile: { command: 'x' } } }));
    const all = loadMcpConfig({ projectRoot: project, mcaHome, home, env: {}, mcpConfigs: [file] });
    expect(all.servers.map((server) => server.name)).toEqual(['viaFile']);
    expect(all.notices).toHaveLength(2);
    expect(all.notices.join('\n')).toContain('.mcp.json');
    expect(all.notices.join('\n')).toContain('server "bad"');
    const strict = loadMcpConfig({ projectRoot: project, mcaHome, home, env: {}, mcpConfigs: [file], strict: true });
    expect(strict).toEqual({ servers: [expect.objectContaining({ name: 'viaFile' })], notices: [] });
  });
});

describe('project server approval', () => {
  it('starts a project server only when trusted and approved; disabled wins; other scopes always start', () => {
    const { project, home, mcaHome } = dirs();
    mkdirSync(join(project, '.claude'));
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ enabledMcpjsonServers: ['a', 'c'], disabledMcpjsonServers: ['c'] }),
    );
    const server = (name: string, scope: 'project' | 'user') => {
      const parsed = parseServerConfig(name, { command: 'x' }, { scope, source: 's' }, {});
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.config;
    };
    const untrusted = readApprovals({ projectRoot: project, mcaHome, home, trusted: false });
    expect(gateOf(server('a', 'project'), false, untrusted)).toBe('untrusted');
    expect(gateOf(server('u', 'user'), false, untrusted)).toBe('start');
    const trusted = readApprovals({ projectRoot: project, mcaHome, home, trusted: true });
    expect(gateOf(server('a', 'project'), true, trusted)).toBe('start');
    expect(gateOf(server('b', 'project'), true, trusted)).toBe('pending');
    expect(gateOf(server('c', 'project'), true, trusted)).toBe('disabled');
    writeFileSync(join(mcaHome, 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
    const all = readApprovals({ projectRoot: project, mcaHome, home, trusted: true });
    expect(gateOf(server('b', 'project'), true, all)).toBe('start');
    expect(gateOf(server('c', 'project'), true, all)).toBe('disabled');
  });
});

describe('MCP tool names', () => {
  it('sanitises, bounds and de-duplicates what a server calls its tools', () => {
    const taken = new Set(['mcp__s__a']);
    expect(mcpToolName('s', 'a', taken)).toBe('mcp__s__a_2');
    expect(mcpToolName('my server', 'get\u001b[31missue\n', new Set())).toBe('mcp__my_server__get__31missue_');
    const long = mcpToolName('s', 'x'.repeat(500), new Set());
    expect(long).toHaveLength(64);
    expect(mcpToolName('s', '', new Set())).toBe('mcp__s___');
    expect(mcpToolName('s', 'Read', new Set(['Read']))).toBe('mcp__s__Read');
  });
});

describe("a project server named like one of the user's own (red team round three, class 11)", () => {
  it("the user's server is kept, whatever the spelling that makes the same tool names; the project one is reported", () => {
    const { project, home, mcaHome } = dirs();
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ mcpServers: { github: { command: 'mine' }, 'git hub': { command: 'mine-too' } } }),
    );
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({
        mcpServers: { github: { command: 'theirs' }, git_hub: { command: 'theirs' }, other: { command: 'o' } },
      }),
    );
    const loaded = loadMcpConfig({ projectRoot: project, mcaHome, home, env: {} });
    const byName = Object.fromEntries(loaded.servers.map((server) => [server.name, server]));
    expect(byName.github).toMatchObject({ scope: 'user', command: 'mine' });
    expect(byName.git_hub).toBeUndefined();
    expect(byName.other).toMatchObject({ scope: 'project' });
    expect(loaded.notices).toHaveLength(2);
  });
});
