import { describe, expect, it } from 'vitest';
import { addressProblem, isPrivateAddress, privateHostsAllowed } from '../../src/tools/web/web-fetch-address.js';

describe('WebFetch address rule', () => {
  it('classes loopback, private, link-local, CGNAT, unspecified and mapped addresses as private', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      'fd12::3',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses non-http schemes, credentials and literal private hosts unless the user listed the host', async () => {
    const none = privateHostsAllowed({});
    expect(await addressProblem(new URL('file:///etc/passwd'), none)).toMatch(/only http/);
    expect(await addressProblem(new URL('http://user:pw@example.com/'), none)).toMatch(/user name or password/);
    expect(await addressProblem(new URL('http://169.254.169.254/latest/meta-data'), none)).toMatch(
      /loopback or private address \(169\.254\.169\.254\)/,
    );
    expect(await addressProblem(new URL('http://[::1]:8080/'), none)).toMatch(/loopback or private/);
    const listed = privateHostsAllowed({ MCA_WEBFETCH_PRIVATE_HOSTS: ' LocalHost , 127.0.0.1' });
    expect(await addressProblem(new URL('http://127.0.0.1:3000/'), listed)).toBeUndefined();
    expect(await addressProblem(new URL('http://localhost:3000/'), listed)).toBeUndefined();
    expect(await addressProblem(new URL('http://10.0.0.1/'), listed)).toMatch(/loopback or private/);
  });
});
