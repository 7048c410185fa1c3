/**
 * The checks `/doctor` and `mca doctor` print, one line each (✓ or ✗ with the fix): Node, ripgrep, the terminal,
 * MCA_HOME, the key, and the settings keys mca does not implement. None of them calls the model.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRipgrep } from '../tools/grep/grep-ripgrep.js';
import { readPackageVersion } from './version.js';

/** The package version, or `unknown` when the package.json beside dist/ cannot be read (a test build). */
export function packageVersion(): string {
  try {
    return readPackageVersion(dirname(fileURLToPath(import.meta.url)));
  } catch {
    return 'unknown';
  }
}

/** Where the key comes from (never the key itself). */
export function keySource(env: NodeJS.ProcessEnv = process.env, apiKeyHelperFile?: string): string {
  if (env.ANTHROPIC_API_KEY?.trim()) return 'ANTHROPIC_API_KEY (environment)';
  if (env.ANTHROPIC_AUTH_TOKEN?.trim()) return 'ANTHROPIC_AUTH_TOKEN (environment)';
  if (env.OPENAI_API_KEY?.trim()) return 'OPENAI_API_KEY (environment)';
  if (apiKeyHelperFile !== undefined) return `apiKeyHelper (${apiKeyHelperFile})`;
  return 'none';
}

function ripgrepLine(): string {
  const rg = findRipgrep();
  if (!rg)
    return '✗ ripgrep not found — fix: install it (apt install ripgrep, brew install ripgrep); Grep falls back to a slower built-in search';
  const run = spawnSync(rg, ['--version'], { encoding: 'utf8', timeout: 5000 });
  const first = (run.stdout ?? '').split('\n')[0]?.trim() || 'version unknown';
  return `✓ ripgrep: ${rg} (${first})`;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export interface DoctorInputs {
  mcaHome: string;
  /** Lines the start printed about settings (bad values, ignored project keys). */
  startupNotices: readonly string[];
  /** Settings keys mca does not implement, each with its file. */
  unsupported: ReadonlyArray<{ key: string; file: string }>;
  /** The settings file whose `apiKeyHelper` gives the key when the environment has none. */
  apiKeyHelperFile?: string | undefined;
}

export function doctorLines({ mcaHome, startupNotices, unsupported, apiKeyHelperFile }: DoctorInputs): string[] {
  const lines = [`✓ mca ${packageVersion()} on Node ${process.versions.node} (${process.argv[1] ?? 'unknown path'})`];
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) lines.push('✗ Node is older than 20 — fix: install Node 20 or newer');
  lines.push(ripgrepLine());
  const term = process.env.TERM ?? '';
  lines.push(
    term && term !== 'dumb'
      ? `✓ terminal: TERM=${term}, ${process.stdout.columns ?? '?'}×${process.stdout.rows ?? '?'}`
      : '✗ terminal: TERM is unset or dumb — fix: export TERM=xterm-256color',
  );
  lines.push(
    writable(mcaHome) || !existsSync(mcaHome)
      ? `✓ MCA_HOME ${mcaHome} is writable`
      : `✗ MCA_HOME ${mcaHome} is not writable — fix: chmod u+w it or set MCA_HOME elsewhere`,
  );
  const key = keySource(process.env, apiKeyHelperFile);
  lines.push(
    key === 'none'
      ? '✗ API key: none — fix: export ANTHROPIC_API_KEY=sk-ant-… (a Claude subscription sign-in is not supported)'
      : `✓ API key: ${key}`,
  );
  const problems = startupNotices.filter((notice) => !notice.startsWith('settings keys mca does not implement'));
  if (problems.length === 0) lines.push('✓ settings: no problems found');
  for (const notice of problems) lines.push(`✗ settings: ${notice} — fix: edit the file named`);
  for (const { key: name, file } of unsupported)
    lines.push(`· settings key ${name} (${file}): not implemented, ignored`);
  return lines;
}
