/**
 * Starts the built `mca` REPL in its own tmux server against a loopback fake API, in a temp project with its own
 * MCA_HOME and HOME. Ink hides its live area when CI is set, so mca runs with CI unset.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runsWith } from '../../helpers/optional-tools.js';
import { TmuxSession, tmuxInfo } from './tmux.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const BINARY = join(REPO, 'dist/cli/mca.cjs');

export const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export interface ReplLaunch {
  term: TmuxSession;
  root: string;
  project: string;
  home: string;
  /** Environment for running the same binary outside tmux (e.g. `mca -p` to make sessions). */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface LaunchOptions {
  args?: string[];
  env?: Record<string, string>;
  files?: Record<string, string>;
  /** Files under MCA_HOME (e.g. `commands/x.md`, a user command). */
  homeFiles?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** Reuse a project made by an earlier launch (its sessions). */
  reuse?: { root: string };
  /** Another build of mca to run (benchmarks against a base build); default this tree's dist/cli/mca.cjs. */
  binary?: string;
}

/**
 * Whether tmux e2e tests run here: when tmux exists, or when MCA_REQUIRE_OPTIONAL_TOOLS=1 makes them mandatory (a
 * missing tmux then fails loudly). `CI` alone does not force them: a fresh machine's `CI=true npm test` skips them
 * with a printed reason.
 */
export function tmuxTestsRun(): boolean {
  return runsWith('tmux', tmuxInfo().available, 'the tmux REPL e2e tests');
}

export async function prepareProject(
  url: string,
  options: Pick<LaunchOptions, 'env' | 'files' | 'homeFiles' | 'reuse'>,
): Promise<Omit<ReplLaunch, 'term' | 'cleanup'>> {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing; run npm run build first`);
  const root = options.reuse?.root ?? (await realpath(await mkdtemp(join(tmpdir(), 'mca-repl-e2e-'))));
  const project = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), content);
  }
  for (const [path, content] of Object.entries(options.homeFiles ?? {})) {
    await mkdir(dirname(join(home, path)), { recursive: true });
    await writeFile(join(home, path), content);
  }
  const env: Record<string, string> = {
    ANTHROPIC_API_KEY: 'sk-test',
    ANTHROPIC_BASE_URL: url,
    MCA_HOME: home,
    MCA_TOOL_PROTOCOL: 'text',
    HOME: root,
    ...options.env,
  };
  return { root, project, home, env };
}

export async function launchRepl(url: string, options: LaunchOptions = {}): Promise<ReplLaunch> {
  const prepared = await prepareProject(url, options);
  const launcher = join(prepared.root, 'mca.sh');
  const assignments = Object.entries(prepared.env).map(([name, value]) => `${name}=${quote(value)}`);
  const command = [process.execPath, options.binary ?? BINARY, ...(options.args ?? [])].map(quote).join(' ');
  await writeFile(
    launcher,
    `#!/bin/sh\ncd ${quote(prepared.project)} || exit 97\nexec env -u CI ${assignments.join(' ')} ${command}\n`,
  );
  await chmod(launcher, 0o755);
  const term = new TmuxSession();
  term.start({
    command: quote(launcher),
    columns: options.columns ?? 80,
    rows: options.rows ?? 40,
    cwd: prepared.root,
  });
  return {
    ...prepared,
    term,
    cleanup: async () => {
      term.kill();
      if (!options.reuse) await rm(prepared.root, { recursive: true, force: true });
    },
  };
}

/** With MCA_E2E_SCREENS=<dir>, keeps a screen the test saw (the README's captures come from there). */
export async function saveScreen(name: string, text: string): Promise<void> {
  const dir = process.env.MCA_E2E_SCREENS;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.txt`), `${text}\n`);
}
