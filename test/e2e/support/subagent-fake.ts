/**
 * A loopback fake that answers the parent session and its subagents apart, by system prompt: each request goes to
 * the first route whose `match` accepts it, which answers by its own step counter. Every request is recorded with
 * the route that took it, in arrival order, so a test can read the ordering of parent and subagent requests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  startFakeAnthropic,
  systemText,
  userText,
  type FakeAnthropic,
  type FakePlainStep,
  type FakeRequestBody,
} from '../../helpers/fake-anthropic-server.js';
import { runMca, type McaRun } from '../../helpers/run-mca.js';

export interface Route {
  name: string;
  match: (body: FakeRequestBody) => boolean;
  /** The reply to this route's n-th request (0-based). */
  reply: (index: number, body: FakeRequestBody) => FakePlainStep;
}

export interface Routed {
  route: string;
  body: FakeRequestBody;
}

export const KEY = 'sk-ant-test-subagents-0123456789';

export async function routedFake(routes: Route[], log: Routed[]): Promise<FakeAnthropic> {
  const counts = new Map<string, number>();
  const step = (body: FakeRequestBody): FakePlainStep => {
    const route = routes.find((candidate) => candidate.match(body));
    if (!route) return { text: 'no route' };
    const index = counts.get(route.name) ?? 0;
    counts.set(route.name, index + 1);
    log.push({ route: route.name, body });
    return route.reply(index, body);
  };
  return await startFakeAnthropic(Array.from({ length: 60 }, () => step));
}

/**
 * The parent session's route (it takes every request no other route took): its first reply calls the Agent tool
 * once (`id`, `input`), after `text`; every later one answers `answer`.
 */
export function delegatingParent(
  id: string,
  input: { subagent_type: string; description: string; prompt: string },
  { text = '', answer = 'done' }: { text?: string; answer?: string } = {},
): Route {
  return {
    name: 'parent',
    match: () => true,
    reply: (index) => (index === 0 ? { text, calls: [{ id, name: 'Agent', input }] } : { text: answer }),
  };
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export interface Dirs {
  root: string;
  home: string;
  userHome: string;
}

export function mcaEnv(dirs: Dirs, server: FakeAnthropic): Record<string, string> {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, MCA_HOME: dirs.home, HOME: dirs.userHome };
}

export async function trust(dirs: Dirs): Promise<void> {
  const run = await runMca(['trust', dirs.root], { env: { MCA_HOME: dirs.home, HOME: dirs.userHome } });
  if (run.code !== 0) throw new Error(`mca trust failed: ${run.stderr}`);
}

export async function ask(
  dirs: Dirs,
  server: FakeAnthropic,
  prompt: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<McaRun> {
  return await runMca(['-p', prompt, ...args], { cwd: dirs.root, env: { ...mcaEnv(dirs, server), ...env } });
}

export function toolNames(body: FakeRequestBody): string[] {
  return ((body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
}

/** Everything the model is shown in a request: system, messages (tool results included), tools. */
export function requestText(body: FakeRequestBody): string {
  return `${systemText(body)}\n${JSON.stringify(body.messages ?? [])}`;
}

export { systemText, userText };
