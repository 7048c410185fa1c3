/**
 * The tasks the start-up bench (and bench/profile-steps.ts) give mca: a one-shot answer, and 7 read-only tool steps
 * on a small project followed by the answer; the project's files; the children's clean environment.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FakeReplyStep } from '../../test/helpers/fake-anthropic-server.js';

export const ANSWER = 'ok';

const act = (tool: string, input: unknown): FakeReplyStep => ({
  text: `Thought: look at it\nAction: ${tool}[${JSON.stringify(input)}]`,
});
export const FINISH: FakeReplyStep = { text: `Thought: done\nAction: Finish[${ANSWER}]` };

/** The small project the multi-step task reads. */
export const PROJECT_FILES: Readonly<Record<string, string>> = {
  'README.md': '# demo\n\nA tiny project for the start-up bench.\n',
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/text.ts': 'export function shout(text: string): string {\n  return `${text.toUpperCase()}!`;\n}\n',
  'src/index.ts': "export { add } from './math.js';\nexport { shout } from './text.js';\n",
  'test/math.test.ts': "import { add } from '../src/math.js';\nif (add(1, 2) !== 3) throw new Error('add');\n",
};

/** 7 tool steps that need no approval, then the answer. */
export const MULTI_STEP: FakeReplyStep[] = [
  act('LS', { path: '.' }),
  act('Glob', { pattern: '**/*.ts' }),
  act('Read', { path: 'src/index.ts' }),
  act('Grep', { pattern: 'export function', path: 'src' }),
  act('Read', { path: 'src/math.ts' }),
  act('LS', { path: 'src' }),
  act('Read', { path: 'test/math.test.ts' }),
  FINISH,
];

export const MULTI_STEP_TASK = 'Look around the project, then say ok.';

export async function writeProject(root: string): Promise<void> {
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A clean environment: nothing from the developer's shell (real keys, MCA_*, NODE_OPTIONS) reaches the children. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR'];
  const base = Object.fromEntries(keep.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
  return { ...base, ...extra };
}

/** The environment of a bench child that talks to the loopback fake model: a dummy key, that server, its own home. */
export function fakeModelEnv(serverUrl: string, home: string): NodeJS.ProcessEnv {
  return childEnv({ ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: serverUrl, MCA_HOME: home, NO_COLOR: '1' });
}
