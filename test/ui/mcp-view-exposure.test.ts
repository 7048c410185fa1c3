import { describe, expect, it } from 'vitest';
import { serverLines } from '../../src/ui/mcp-view.js';
import { serverExposure } from '../../src/mcp/server-exposure.js';
import type { ServerConfig } from '../../src/mcp/server-config.js';

describe('/mcp before Enable (round three, class 1)', () => {
  it('a pending project server lists what it would get: env and headers, secrets and repository paths marked', () => {
    const server: ServerConfig = {
      name: 'tracker',
      scope: 'project',
      source: '.mcp.json',
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer ghp-real-value' },
      written: { env: {}, headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' }, rest: ['http://127.0.0.1:9/mcp'] },
    };
    const lines = serverLines(
      {
        name: 'tracker',
        scope: 'project',
        source: '.mcp.json',
        launch: 'http http://127.0.0.1:9/mcp',
        state: 'pending',
        tools: [],
        exposure: serverExposure(server, '/repo'),
      },
      false,
    ).join('\n');
    expect(lines).toMatch(/gets: header Authorization: .*sends \$\{GITHUB_TOKEN\}/);
    expect(lines).not.toContain('ghp-real-value');
  });

  it('a stdio server: NODE_OPTIONS loading a repository file and a plain variable', () => {
    const server: ServerConfig = {
      name: 'helper',
      scope: 'project',
      source: '.mcp.json',
      type: 'stdio',
      command: 'node',
      args: ['s.js'],
      env: { NODE_OPTIONS: '--require ./x.cjs', MODE: 'fast' },
    };
    const exposure = serverExposure(server, '/repo');
    expect(exposure[0]).toMatch(
      /^env NODE_OPTIONS=--require \.\/x\.cjs: makes programs load code.*points into the repository/,
    );
    expect(exposure[1]).toBe('env MODE');
  });
});
