import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPromptsDir, loadPrompt, PromptError, tryLoadPrompt } from '../../src/context/prompt-loader.js';
import { composeSystemLayer } from '../../src/context/system-layer.js';

describe('prompt loader', () => {
  it('loads the shipped prompts, with or without the .md suffix', () => {
    const system = loadPrompt('system');
    expect(system).toContain('{{protocol}}');
    expect(loadPrompt('protocol-text')).toContain('Action: Finish[');
    expect(loadPrompt('system.md')).toBe(system);
    expect(loadPrompt('summary')).toContain('## 📌 Archived Session Summary');
  });

  it('rejects bad names and reports missing prompts', () => {
    expect(() => loadPrompt('../package')).toThrow(PromptError);
    expect(() => loadPrompt('nope-not-here')).toThrow(/missing prompt/);
    expect(tryLoadPrompt('tools/NoSuchTool')).toBeUndefined();
  });

  it('walks up to the directory holding prompts/system.md (as from dist/context)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mca-prompts-'));
    await mkdir(join(root, 'prompts'));
    await mkdir(join(root, 'dist', 'context'), { recursive: true });
    await writeFile(join(root, 'prompts', 'system.md'), 'x');
    expect(findPromptsDir(join(root, 'dist', 'context'))).toBe(join(root, 'prompts'));
    await rm(root, { recursive: true, force: true });
  });
});

describe('composeSystemLayer', () => {
  it('appends each tool prompt under its name, in order', () => {
    const layer = composeSystemLayer('SYSTEM\n', [
      { name: 'Read', prompt: 'Reads files.\n' },
      { name: 'Bash', prompt: 'Runs commands.' },
    ]);
    expect(layer).toBe('SYSTEM\n\n# Tools\n\n## Read\n\nReads files.\n\n## Bash\n\nRuns commands.');
    expect(composeSystemLayer('SYSTEM', [])).toBe('SYSTEM');
  });

  it('keeps a tool prompt that brings its own heading as is', () => {
    const layer = composeSystemLayer('SYSTEM', [{ name: 'Bash', prompt: '## Bash\nRuns commands.' }]);
    expect(layer).toBe('SYSTEM\n\n# Tools\n\n## Bash\nRuns commands.');
  });
});
