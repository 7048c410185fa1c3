/**
 * The sandbox settings under the trust rule (an untrusted project only narrows), the host rules of the proxy, the
 * placement of a Bash call, and what the trust question lists.
 */
import { describe, expect, it } from 'vitest';
import { CommandBox } from '../../src/sandbox/command-box.js';
import { isPrivateAddress, judgeHost } from '../../src/sandbox/host-rules.js';
import { resolveSandbox } from '../../src/sandbox/sandbox-settings.js';
import { sandboxLayers, sandboxTrustLines } from '../../src/sandbox/sandbox-layers.js';
import { unixSocketFilter } from '../../src/sandbox/seccomp-filter.js';

const USER = '/home/u/.claude/settings.json';
const PROJECT = '/p/.claude/settings.json';

describe('resolveSandbox', () => {
  it("an untrusted project narrows but never widens; the user's file widens", () => {
    const files = [
      { file: USER, value: { network: { allowedDomains: ['registry.npmjs.org'] } }, project: false },
      {
        file: PROJECT,
        value: {
          enabled: true,
          excludedCommands: ['docker'],
          allowUnsandboxedCommands: true,
          network: { allowedDomains: ['evil.example'], deniedDomains: ['registry.npmjs.org'] },
          filesystem: { allowWrite: ['~/.bashrc'], denyRead: ['secrets/'] },
        },
        project: true,
      },
    ];
    const { settings, ignoredWidening } = resolveSandbox(sandboxLayers({ files, trusted: false }));
    expect(settings.enabled).toBe(true);
    expect(settings.allowedDomains).toEqual(['registry.npmjs.org']);
    expect(settings.deniedDomains).toEqual(['registry.npmjs.org']);
    expect(settings.excludedCommands).toEqual([]);
    expect(settings.allowWrite).toEqual([]);
    expect(settings.denyRead).toEqual(['secrets/']);
    // Turned on by the untrusted project alone: nothing runs unasked for the box's sake.
    expect(settings.autoAllowBashIfSandboxed).toBe(false);
    expect(ignoredWidening.join('\n')).toContain('excludedCommands docker');
    expect(ignoredWidening.join('\n')).toContain('network.allowedDomains evil.example');
    expect(ignoredWidening.join('\n')).toContain('filesystem.allowWrite ~/.bashrc');
    const trusted = resolveSandbox(sandboxLayers({ files, trusted: true })).settings;
    expect(trusted.allowedDomains).toEqual(['registry.npmjs.org', 'evil.example']);
    expect(trusted.autoAllowBashIfSandboxed).toBe(true);
  });

  it('a project cannot turn off a box the user turned on; --no-sandbox (the user) can', () => {
    const files = [
      { file: USER, value: { enabled: true }, project: false },
      { file: PROJECT, value: { enabled: false, autoAllowBashIfSandboxed: false }, project: true },
    ];
    const resolved = resolveSandbox(sandboxLayers({ files, trusted: false }));
    expect(resolved.settings.enabled).toBe(true);
    expect(resolved.settings.autoAllowBashIfSandboxed).toBe(false);
    expect(resolved.ignoredWidening).toEqual([`sandbox: turns the sandbox off (${PROJECT})`]);
    expect(resolveSandbox(sandboxLayers({ files, trusted: false, flag: false })).settings.enabled).toBe(false);
  });

  it('names unknown keys and bad values once each', () => {
    const { notices } = resolveSandbox([
      { file: USER, value: { enabled: 'yes', network: { allowedDomains: 'x', proxyPort: 1 } }, mayWiden: true },
    ]);
    expect(notices).toEqual([
      `ignored sandbox.enabled in ${USER}: it must be true or false`,
      `settings key "sandbox.network.proxyPort" in ${USER} is not supported by mca; ignored`,
      `ignored sandbox.network.allowedDomains in ${USER}: it must be a list of strings`,
    ]);
  });

  it('the trust question lists what the project would widen', () => {
    const lines = sandboxTrustLines([
      { file: USER, value: { excludedCommands: ['git'] }, project: false },
      { file: PROJECT, value: { network: { allowedDomains: ['*.example.com'] } }, project: true },
    ]);
    expect(lines).toEqual([`sandbox: network.allowedDomains *.example.com (${PROJECT})`]);
  });
});

describe('host rules', () => {
  it('judges by name: exact, wildcard, denied wins, addresses only as written', () => {
    expect(judgeHost('api.github.com', ['*.github.com'], [])).toEqual({ allowed: true, exact: false });
    expect(judgeHost('github.com', ['*.github.com'], [])).toEqual({ allowed: false, reason: 'not-listed' });
    expect(judgeHost('Localhost.', ['localhost'], [])).toEqual({ allowed: true, exact: true });
    expect(judgeHost('x.github.com', ['*.github.com'], ['x.github.com'])).toEqual({ allowed: false, reason: 'denied' });
    expect(judgeHost('127.0.0.1', ['localhost'], [])).toEqual({ allowed: false, reason: 'not-listed' });
    expect(judgeHost('[::1]', ['::1'], [])).toEqual({ allowed: true, exact: true });
  });

  it('knows private addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '2606:4700::1111']) expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('placement of a Bash call', () => {
  const settings = resolveSandbox([
    { file: USER, value: { enabled: true, excludedCommands: ['docker:*'] }, mayWiden: true },
  ]).settings;
  const places = { projectRoot: '/p', roots: () => [], home: '/h', mcaHome: '/h/.mca' };
  const box = new CommandBox(settings, { ok: true, bwrap: '/usr/bin/bwrap', socat: undefined }, places);

  it('inside and unasked; excluded and `!` lines outside; leaving the box is asked', () => {
    expect(box.place({ command: 'npm test' }, 'model')).toEqual({
      boxed: true,
      verdict: 'auto',
      label: 'in the sandbox',
    });
    expect(box.place({ command: 'docker ps' }, 'model')).toMatchObject({ boxed: false, note: expect.any(String) });
    expect(box.place({ command: 'dockerd' }, 'model').boxed).toBe(true);
    expect(box.place({ command: 'ls' }, 'user-shell').note).toContain('your own `!` lines');
    expect(box.place({ command: 'ls', dangerouslyDisableSandbox: true }, 'model').verdict).toBe('ask');
  });

  it('an unavailable box runs nothing unasked and says so', () => {
    const missing = new CommandBox(settings, { ok: false, reason: 'no bwrap' }, places);
    const place = missing.place({ command: 'npm test' }, 'model');
    expect(place.boxed).toBe(false);
    expect(place.verdict).toBeUndefined();
    expect(place.note).toContain('unavailable');
  });

  it('failIfUnavailable refuses Bash where the box cannot start', () => {
    const strict = resolveSandbox([
      { file: USER, value: { enabled: true, failIfUnavailable: true }, mayWiden: true },
    ]).settings;
    const place = new CommandBox(strict, { ok: false, reason: 'no bwrap' }, places).place({ command: 'ls' }, 'model');
    expect(place.verdict).toEqual({
      refuse: expect.stringContaining('(no bwrap) and sandbox.failIfUnavailable is set'),
    });
  });

  it('refuses leaving the box where unsandboxed commands are not allowed', () => {
    const strict = resolveSandbox([
      { file: USER, value: { enabled: true, allowUnsandboxedCommands: false }, mayWiden: true },
    ]).settings;
    const place = new CommandBox(strict, { ok: true, bwrap: 'b', socat: 's' }, places).place(
      { command: 'ls', dangerouslyDisableSandbox: true },
      'model',
    );
    expect(place.verdict).toEqual({ refuse: expect.stringContaining('allowUnsandboxedCommands is false') });
  });
});

describe('seccomp program', () => {
  it('is 12 little-endian sock_filter entries ending in allow and EPERM', () => {
    const program = unixSocketFilter();
    expect(program.length).toBe(96);
    expect(program.readUInt32LE(10 * 8 + 4)).toBe(0x7fff0000);
    expect(program.readUInt32LE(11 * 8 + 4)).toBe(0x00050001);
  });
});
