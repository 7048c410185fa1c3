/**
 * The one path screen (src/permissions/path-screen.ts): every reader that opens files the policy never saw as a
 * tool input (Grep with both engines, Glob, LS, memory-file imports, `@image` attachments) withholds a symlink
 * whose real path a rule covers, and an ask rule withholds as well as a deny rule.
 */
import { realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachImages } from '../../src/loop/attachments.js';
import { MemoryFiles } from '../../src/context/memory-files.js';
import { pathCheck } from '../../src/permissions/path-screen.js';
import { PermissionPolicy } from '../../src/permissions/policy.js';
import { parseRule } from '../../src/permissions/rule.js';
import { globTool } from '../../src/tools/walking/glob.js';
import { createGrepTool } from '../../src/tools/grep/grep.js';
import { findRipgrep } from '../../src/tools/grep/grep-ripgrep.js';
import { lsTool } from '../../src/tools/walking/ls.js';
import { ToolRegistry } from '../../src/tools/registry/registry.js';
import { makeContext, makeProject, runTool, type TestContext, type TestProject } from '../tools/helpers.js';

const SECRET = 'SCREENED-SECRET-71c2';
let project: TestProject;
let root: string;
const registry = new ToolRegistry()
  .register(createGrepTool({ engine: 'js' }))
  .register(globTool)
  .register(lsTool);
const engines: Array<[string, ToolRegistry]> = [['js', registry]];
if (findRipgrep() !== undefined)
  engines.push(['ripgrep', new ToolRegistry().register(createGrepTool({ engine: 'ripgrep' }))]);

beforeAll(async () => {
  project = await makeProject({ 'private/key.txt': `${SECRET}\n`, 'CLAUDE.md': 'See @notes.md\n' });
  root = realpathSync(project.root);
  // Innocent names inside the project whose real path is the covered file.
  symlinkSync(join(root, 'private', 'key.txt'), join(root, 'notes.md'));
  writeFileSync(join(root, 'real.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  symlinkSync(join(root, 'private', 'key.txt'), join(root, 'shot.png'));
});
afterAll(() => project.cleanup());

function policyOf(behavior: 'deny' | 'ask', text: string): PermissionPolicy {
  const parsed = parseRule(text, behavior, 'settings.json');
  if (!parsed.ok) throw new Error(parsed.message);
  return new PermissionPolicy([parsed.rule], { projectRoot: root });
}

function screened(policy: PermissionPolicy): TestContext {
  return { ...makeContext(root), pathScreen: (tool) => policy.pathScreen(tool) };
}

describe('one path screen for every reader', () => {
  for (const behavior of ['deny', 'ask'] as const) {
    it(`a symlink to a file a ${behavior} rule covers is withheld by Grep (both engines), Glob and LS`, async () => {
      const ctx = screened(policyOf(behavior, 'Read(private/**)'));
      for (const [name, engine] of engines) {
        const grep = await runTool(engine, 'Grep', { pattern: 'SCREENED', path: '.', output_mode: 'content' }, ctx);
        expect(JSON.stringify(grep), name).not.toContain(SECRET);
      }
      const glob = await runTool(registry, 'Glob', { pattern: '**/*.md' }, ctx);
      expect(glob.text).not.toContain('notes.md');
      expect(glob.text).toContain('CLAUDE.md');
      const ls = await runTool(registry, 'LS', { path: '.' }, ctx);
      expect(ls.text).not.toContain('notes.md');
      expect(ls.text).not.toContain('private');
      expect(ls.text).toContain('CLAUDE.md');
    });

    it(`a memory-file import and an @image attachment through such a symlink are skipped (${behavior} rule)`, () => {
      const screen = policyOf(behavior, 'Read(private/**)').pathScreen('Read');
      expect(screen).toBeDefined();
      const check = pathCheck(screen!);
      const memory = new MemoryFiles({
        projectRoot: root,
        mcaHome: join(root, '.mca-home'),
        home: root,
        readDenied: check,
      });
      expect(memory.read() ?? '').not.toContain(SECRET);
      expect(memory.problems().join('\n')).toContain('Read(private/**)');
      const attached = attachImages(
        'look @shot.png',
        [{ path: 'shot.png', kind: 'file', quoted: false, display: '@shot.png' }],
        [],
        root,
        check,
      );
      expect(attached.images).toHaveLength(0);
      expect(attached.notes.join('\n')).toContain(`the ${behavior} rule Read(private/**) covers it`);
    });
  }

  it('without a rule nothing is withheld (the checks above can fail)', async () => {
    const ctx = makeContext(root);
    const ls = await runTool(registry, 'LS', { path: '.' }, ctx);
    expect(ls.text).toContain('notes.md');
    const memory = new MemoryFiles({ projectRoot: root, mcaHome: join(root, '.mca-home'), home: root });
    expect(memory.read() ?? '').toContain(SECRET);
  });

  it('a whole-tool ask rule is left to the call (it does not withhold every file of an approved walk)', () => {
    expect(policyOf('ask', 'Grep').pathScreen('Grep')).toBeUndefined();
    expect(
      policyOf('deny', 'Read')
        .pathScreen('Read')
        ?.rules.map((rule) => rule.text),
    ).toEqual(['Read']);
  });
});
