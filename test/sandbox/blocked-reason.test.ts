/** What a failed boxed command's result says the box blocked (src/sandbox/blocked-reason.ts). */
import { describe, expect, it } from 'vitest';
import { blockedNote, blockedReasons } from '../../src/sandbox/blocked-reason.js';

const base = { stdout: '', hidden: ['/h/.ssh', '/h/.aws'], home: '/h', unixSocketsOpen: false };

describe('blockedReasons', () => {
  it('names refused hosts once each, even when the command succeeded', () => {
    const at = Date.now();
    const refusals = [
      { host: 'evil.example', port: 443, why: 'not-listed' as const, at },
      { host: 'evil.example', port: 443, why: 'not-listed' as const, at },
      { host: 'x.example', port: 80, why: 'denied' as const, at },
    ];
    expect(blockedReasons({ ...base, command: 'curl x', stderr: '', refusals, failed: false })).toEqual([
      'network access to evil.example:443 (not in sandbox.network.allowedDomains)',
      'network access to x.example:80 (in sandbox.network.deniedDomains)',
    ]);
  });

  it('names read-only paths and hidden places a failed command touched', () => {
    const stderr = [
      "touch: cannot touch '/etc/x': Read-only file system",
      'bash: /var/tmp/out.txt: Read-only file system',
      'cat: /h/.ssh/id_rsa: No such file or directory',
    ].join('\n');
    const lines = blockedReasons({ ...base, command: 'cat ~/.ssh/id_rsa', stderr, refusals: [], failed: true });
    expect(lines).toEqual([
      expect.stringMatching(/^writing \/etc\/x \(/),
      expect.stringMatching(/^writing \/var\/tmp\/out.txt \(/),
      expect.stringMatching(/^reading ~\/.ssh \(hidden/),
    ]);
    expect(blockedNote(lines)).toMatch(/^\[sandbox\] The command ran in the sandbox, which blocked:\n- writing/);
  });

  it('says nothing when nothing points at the box', () => {
    const lines = blockedReasons({ ...base, command: 'false', stderr: 'boom', refusals: [], failed: true });
    expect(lines).toEqual([]);
    expect(blockedNote(lines)).toBeUndefined();
  });
});
