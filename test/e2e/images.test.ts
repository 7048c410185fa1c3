/**
 * Images end to end (issue 31 item 7, issue 26 item 5), through the built binary and the loopback fake models:
 * what the next request carries for `@shot.png`, a Read of an image, an MCP image result, a model that takes no
 * images, and hostile files (too large, a `.png` that is not one); what history (the request after the next turn)
 * keeps: one reference line, never the data.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeRequestBody } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai-server.js';
import { runMca } from '../helpers/run-mca.js';
import { tempProject } from '../helpers/temp-project.js';
import { pngBytes } from '../helpers/image-fixtures.js';

const KEY = 'sk-ant-test-images-0123456789';
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
let fake: FakeAnthropic | undefined;
let openai: FakeOpenAI | undefined;

afterEach(async () => {
  await fake?.close();
  await openai?.close();
  fake = undefined;
  openai = undefined;
});

interface Block {
  type: string;
  text?: string;
  source?: { type: string; media_type: string; data: string };
  content?: unknown;
  is_error?: boolean;
}

function blocks(body: FakeRequestBody | undefined, role = 'user'): Block[] {
  return (body?.messages ?? [])
    .filter((message) => message.role === role)
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as Block[]) : []));
}

/** Every image block of a request, also those inside tool_result content. */
function imagesOf(body: FakeRequestBody | undefined): Block[] {
  return blocks(body).flatMap((block) =>
    block.type === 'image'
      ? [block]
      : Array.isArray(block.content)
        ? (block.content as Block[]).filter((inner) => inner.type === 'image')
        : [],
  );
}

function toolResults(body: FakeRequestBody | undefined): Block[] {
  return blocks(body).filter((block) => block.type === 'tool_result');
}

function env(home: string, extra: Record<string, string> = {}) {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake?.url ?? '', MCA_HOME: home, ...extra };
}

const SHOT = pngBytes(30, 20);

describe('images to the Anthropic API', () => {
  it('@shot.png attaches the image as an image block with its media type and data; history keeps one line', async () => {
    const { root, home } = tempProject('mca-img-', { 'notes.md': 'x\n' });
    writeFileSync(join(root, 'shot.png'), SHOT);
    fake = await startFakeAnthropic([{ text: 'A grey rectangle.' }, { text: 'Still grey.' }]);
    const first = await runMca(['-p', 'describe @shot.png'], { cwd: root, env: env(home) });
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('A grey rectangle.');
    const images = imagesOf(fake.requests[0]?.body);
    expect(images).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SHOT.toString('base64') } },
    ]);
    // An image mention is attached, not turned into a reminder to Read it.
    expect(JSON.stringify(fake.requests[0]?.body.messages)).not.toContain('You MUST read');

    const second = await runMca(['-c', '-p', 'and now?'], { cwd: root, env: env(home) });
    expect(second.code).toBe(0);
    expect(imagesOf(fake.requests[1]?.body)).toEqual([]);
    expect(JSON.stringify(fake.requests[1]?.body.messages)).toMatch(/\[image: shot\.png, 30x20, \d+ KB\]/);
  });

  it('@secret.png that a Read deny rule covers is not attached: the model gets a note naming the rule', async () => {
    const { root, home } = tempProject('mca-img-deny-', {});
    writeFileSync(join(root, 'secret.png'), SHOT);
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./secret.png)'] } }));
    fake = await startFakeAnthropic([{ text: 'Nothing to see.' }]);
    const run = await runMca(['-p', 'describe @secret.png'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(imagesOf(fake.requests[0]?.body)).toEqual([]);
    expect(JSON.stringify(fake.requests[0]?.body.messages)).toContain(
      '[@secret.png not attached: the deny rule Read(./secret.png) covers it]',
    );
  });

  it('Read of a png: the next request has an image block inside tool_result; after the turn only the reference', async () => {
    const { root, home } = tempProject('mca-img-read-', {});
    writeFileSync(join(root, 'ui.png'), SHOT);
    fake = await startFakeAnthropic([
      { text: 'Looking.', calls: [{ id: 'toolu_img', name: 'Read', input: { path: 'ui.png' } }] },
      { text: 'It is grey.' },
      { text: 'Yes, grey.' },
    ]);
    const run = await runMca(['-p', 'look at ui.png'], { cwd: root, env: env(home) });
    expect(run.stderr).toBe('');
    const result = toolResults(fake.requests[1]?.body)[0];
    expect(result?.is_error).toBeUndefined();
    expect(imagesOf(fake.requests[1]?.body)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SHOT.toString('base64') } },
    ]);
    await runMca(['-c', '-p', 'what colour?'], { cwd: root, env: env(home) });
    const later = fake.requests[2]?.body;
    expect(imagesOf(later)).toEqual([]);
    const text = JSON.stringify(later?.messages);
    expect(text).toMatch(/\[image: ui\.png, 30x20, \d+ KB\]/);
    expect(text).not.toContain(SHOT.toString('base64').slice(0, 40));
  });

  it('text protocol: a Read image rides after its step text in the next request', async () => {
    const { root, home } = tempProject('mca-img-text-', {});
    writeFileSync(join(root, 'ui.png'), SHOT);
    fake = await startFakeAnthropic([
      { text: 'Thought: look\nAction: Read[{"path": "ui.png"}]' },
      { text: 'Thought: done\nAction: Finish[Grey.]' },
    ]);
    const run = await runMca(['-p', 'look'], { cwd: root, env: env(home, { MCA_TOOL_PROTOCOL: 'text' }) });
    expect(run.stdout).toContain('Grey.');
    expect(imagesOf(fake.requests[1]?.body)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SHOT.toString('base64') } },
    ]);
  });

  it('a model that takes no images gets a one-line note instead, never an image block', async () => {
    const { root, home } = tempProject('mca-img-noimg-', {});
    writeFileSync(join(root, 'shot.png'), SHOT);
    fake = await startFakeAnthropic([{ text: 'I cannot see it.' }]);
    const run = await runMca(['-p', 'describe @shot.png', '--model', 'deepseek-chat'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(imagesOf(fake.requests[0]?.body)).toEqual([]);
    expect(JSON.stringify(fake.requests[0]?.body.messages)).toContain('[image omitted: model takes no images]');
  });

  it('an oversized image and a .png that is not one become one-line error observations', async () => {
    const { root, home } = tempProject('mca-img-hostile-', { 'fake.png': 'just text pretending\n' });
    writeFileSync(join(root, 'big.png'), Buffer.concat([SHOT, Buffer.alloc(6 * 1024 * 1024)]));
    fake = await startFakeAnthropic([
      {
        text: 'Reading.',
        calls: [
          { id: 'toolu_big', name: 'Read', input: { path: 'big.png' } },
          { id: 'toolu_fake', name: 'Read', input: { path: 'fake.png' } },
        ],
      },
      { text: 'Neither worked.' },
    ]);
    const run = await runMca(['-p', 'look at @big.png and the other'], { cwd: root, env: env(home) });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^mca: \[@big\.png not attached: big\.png is \d+ KB; images over 5120 KB are not sent\]$/m,
    );
    expect(imagesOf(fake.requests[0]?.body)).toEqual([]);
    expect(JSON.stringify(fake.requests[0]?.body.messages)).toMatch(
      /@big\.png not attached: big\.png is \d+ KB; images over 5120 KB/,
    );
    const [big, fakePng] = toolResults(fake.requests[1]?.body);
    expect(big?.is_error).toBe(true);
    expect(String(big?.content)).toContain('images over 5120 KB are not sent');
    expect(fakePng?.is_error).toBe(true);
    expect(String(fakePng?.content)).toContain('BINARY_FILE');
    expect(imagesOf(fake.requests[1]?.body)).toEqual([]);
  });

  it("server-everything's get-tiny-image result reaches the model as an image block", async () => {
    const { root, home } = tempProject('mca-img-mcp-', {});
    fake = await startFakeAnthropic([
      { text: 'Fetching.', calls: [{ id: 'toolu_tiny', name: 'mcp__everything__get-tiny-image', input: {} }] },
      { text: 'A logo.' },
    ]);
    const config = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    });
    const run = await runMca(
      ['-p', 'show me', '--mcp-config', config, '--allowedTools', 'mcp__everything__get-tiny-image'],
      { cwd: root, env: { ...env(home), HOME: home }, timeoutMs: 90_000 },
    );
    expect(run.code).toBe(0);
    const images = imagesOf(fake.requests[1]?.body);
    expect(images).toHaveLength(1);
    expect(images[0]?.source?.media_type).toBe('image/png');
    expect(
      Buffer.from(images[0]?.source?.data ?? '', 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    expect(JSON.stringify(toolResults(fake.requests[1]?.body))).toMatch(
      /\[image: mcp everything\/get-tiny-image, 20x20/,
    );
  });
});

describe('images to an OpenAI-compatible API', () => {
  it('@shot.png becomes an image_url data URL part; a Read image follows the tool message as a user message', async () => {
    const { root, home } = tempProject('mca-img-openai-', {});
    writeFileSync(join(root, 'shot.png'), SHOT);
    openai = await startFakeOpenAI([
      { text: 'Reading.', calls: [{ id: 'call_img', name: 'Read', input: { path: 'shot.png' } }] },
      { text: 'Grey.' },
    ]);
    const run = await runMca(['-p', 'describe @shot.png'], {
      cwd: root,
      env: {
        MCA_PROVIDER: 'openai',
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: 'k',
        MCA_MODEL: 'gpt-4o',
        MCA_HOME: home,
      },
    });
    expect(run.stderr).toBe('');
    const url = `data:image/png;base64,${SHOT.toString('base64')}`;
    const first = JSON.stringify(openai.requests[0]?.body.messages);
    expect(first).toContain(JSON.stringify({ type: 'image_url', image_url: { url } }));
    const messages = openai.requests[1]?.body.messages ?? [];
    const toolIndex = messages.findIndex((message) => message.role === 'tool');
    expect(messages[toolIndex]?.content).toMatch(/\[image: shot\.png, 30x20/);
    const after = JSON.stringify(messages[toolIndex + 1]);
    expect(messages[toolIndex + 1]?.role).toBe('user');
    expect(after).toContain('call_img');
    expect(after).toContain(JSON.stringify({ type: 'image_url', image_url: { url } }));
  });
});
