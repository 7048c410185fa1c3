import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { priceOf } from '../../src/providers/model-prices.js';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function homeWith(config: unknown): { home: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), 'mca-prices-'));
  dirs.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  writeFileSync(join(home, 'config.json'), JSON.stringify(config));
  return { home, project };
}

describe('config: modelPrices', () => {
  it('overrides the built-in price of a model by its exact name', () => {
    const price = { input: 1, output: 2, cacheWrite: 1.5, cacheRead: 0.1 };
    const { home, project } = homeWith({ modelPrices: { 'my-local-model': price } });
    const config = loadConfig({ cwd: project, env: { MCA_HOME: home } });
    expect(priceOf('my-local-model', config.modelPrices)).toEqual(price);
    expect(priceOf('claude-sonnet-5-5', config.modelPrices)?.input).toBe(3);
  });

  it('defaults to no overrides and refuses a price row with a missing field', () => {
    const empty = homeWith({});
    expect(loadConfig({ cwd: empty.project, env: { MCA_HOME: empty.home } }).modelPrices).toEqual({});
    const bad = homeWith({ modelPrices: { x: { input: 1, output: 2 } } });
    expect(() => loadConfig({ cwd: bad.project, env: { MCA_HOME: bad.home } })).toThrow(ConfigError);
  });
});
