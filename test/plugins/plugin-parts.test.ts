/**
 * A plugin folder's parts as Claude Code 2.1 reads them (src/commands/plugin-folders.ts): manifest paths replace the
 * default folder for commands, agents and output styles, and add to it for skills, hooks and MCP servers; a path
 * that leaves the folder is refused. And `enabledPlugins`' trust rule (src/plugins/enabled-plugins.ts): a plugin
 * only a project file switches on is the project's; a project file may always switch one off.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPluginFolder } from '../../src/commands/plugin-folders.js';
import { enabledPlugins } from '../../src/plugins/enabled-plugins.js';
import { pluginHooks, pluginServers } from '../../src/plugins/load-plugins.js';
import { tempProject } from '../helpers/temp-project.js';

function pluginWith(manifest: Record<string, unknown>, files: Record<string, string>): string {
  const dir = join(tempProject('mca-plugin-parts-').root, 'p');
  for (const [path, text] of Object.entries({ '.claude-plugin/plugin.json': JSON.stringify(manifest), ...files })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('a plugin folder', () => {
  it('uses the default folders without manifest paths', () => {
    const dir = pluginWith({ name: 'kit' }, { 'hooks/hooks.json': '{}', '.mcp.json': '{}' });
    const notices: string[] = [];
    const plugin = readPluginFolder(dir, notices);
    expect(notices).toEqual([]);
    expect(plugin?.id).toBe('kit@inline');
    expect(plugin?.commands).toEqual([join(dir, 'commands')]);
    expect(plugin?.agents).toEqual([join(dir, 'agents')]);
    expect(plugin?.outputStyles).toEqual([join(dir, 'output-styles')]);
    expect(plugin?.skills).toEqual([join(dir, 'skills')]);
    expect(plugin?.hooks).toEqual([{ file: join(dir, 'hooks', 'hooks.json') }]);
    expect(plugin?.mcpServers).toEqual([{ file: join(dir, '.mcp.json') }]);
  });

  it('replaces commands, agents and styles, adds skills, hooks and servers; refuses a path out of the folder', () => {
    const manifest = {
      name: 'kit',
      commands: ['./extra/one.md', './extra/a-skill'],
      agents: './team',
      outputStyles: '../outside',
      skills: './more-skills',
      hooks: { PreToolUse: [] },
      mcpServers: './servers.json',
    };
    const dir = pluginWith(manifest, { 'hooks/hooks.json': '{}', 'extra/a-skill/SKILL.md': '---\nname: a\n---\n' });
    const notices: string[] = [];
    const plugin = readPluginFolder(dir, notices, { marketplace: 'm', project: true });
    expect(plugin?.id).toBe('kit@m');
    expect(plugin?.project).toBe(true);
    expect(plugin?.commands).toEqual([join(dir, 'extra', 'one.md')]);
    expect(plugin?.agents).toEqual([join(dir, 'team')]);
    // A skill folder listed under `commands` loads as a skill (Claude Code's).
    expect(plugin?.skills).toEqual([join(dir, 'skills'), join(dir, 'more-skills'), join(dir, 'extra', 'a-skill')]);
    expect(plugin?.hooks).toHaveLength(2);
    expect(plugin?.mcpServers).toEqual([{ file: join(dir, 'servers.json') }]);
    // The refused path leaves the part empty (not the default folder), and says why.
    expect(plugin?.outputStyles).toEqual([]);
    expect(notices.join('\n')).toContain('"outputStyles" path "../outside" leaves the plugin folder');
  });

  it('expands ${CLAUDE_PLUGIN_ROOT} in hooks and servers, and scopes them by who enabled the plugin', () => {
    const dir = pluginWith(
      { name: 'kit' },
      {
        'hooks/hooks.json': JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/stop.sh' }] }] },
        }),
        '.mcp.json': JSON.stringify({ mcpServers: { db: { command: '${CLAUDE_PLUGIN_ROOT}/db', args: [] } } }),
      },
    );
    const notices: string[] = [];
    const plugin = readPluginFolder(dir, notices, { marketplace: 'm', project: true });
    if (!plugin) throw new Error(notices.join('\n'));
    const [hook] = pluginHooks(plugin, notices);
    expect(hook).toMatchObject({ command: `${dir}/stop.sh`, scope: 'project', pluginRoot: dir });
    const [server] = pluginServers(plugin, {}, notices);
    expect(server).toMatchObject({ name: 'plugin:kit:db', scope: 'project', type: 'stdio', command: `${dir}/db` });
    expect(notices).toEqual([]);
  });
});

describe('enabledPlugins', () => {
  const user = (value: unknown) => ({ value, file: '/u/settings.json', project: false });
  const project = (value: unknown) => ({ value, file: '/p/.claude/settings.json', project: true });

  it("a plugin only a project switches on is the project's; one the user switched on stays the user's", () => {
    const list = enabledPlugins([user({ 'a@m': true }), project({ 'a@m': true, 'b@m': true })], []);
    expect(list.map(({ id, project: fromProject }) => [id, fromProject])).toEqual([
      ['a@m', false],
      ['b@m', true],
    ]);
  });

  it('a project may switch a plugin off; a bad entry is named and skipped', () => {
    const notices: string[] = [];
    const list = enabledPlugins([user({ 'a@m': true, 'no-market': true }), project({ 'a@m': false })], notices);
    expect(list).toEqual([]);
    expect(notices.join('\n')).toContain('ignored enabledPlugins "no-market"');
  });
});
