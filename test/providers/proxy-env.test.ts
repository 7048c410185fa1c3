/**
 * Which requests go through which proxy: the variables curl reads (lower case first, empty = unset), NO_PROXY's
 * forms (domains with their subdomains, host:port, IPs and CIDR ranges, `*`), and proxy URLs with credentials.
 */
import { describe, expect, it } from 'vitest';
import {
  isMisconfigured,
  NoProxy,
  parseProxyUrl,
  ProxySettings,
  type ProxyRoute,
} from '../../src/providers/proxy-env.js';

function route(choice: ReturnType<ProxySettings['choose']>): ProxyRoute | undefined {
  if (isMisconfigured(choice)) throw new Error(choice.problem);
  return choice;
}

describe('NoProxy', () => {
  it.each([
    ['example.com', 'example.com', 443, true],
    ['example.com', 'api.example.com', 443, true],
    ['example.com', 'API.Example.COM.', 443, true],
    ['.example.com', 'example.com', 443, true],
    ['.example.com', 'a.b.example.com', 443, true],
    ['*.example.com', 'api.example.com', 443, true],
    ['example.com', 'notexample.com', 443, false],
    ['example.com', 'example.com.evil.net', 443, false],
    ['example.com:8443', 'example.com', 8443, true],
    ['example.com:8443', 'example.com', 443, false],
    ['10.0.0.0/8', '10.1.2.3', 443, true],
    ['10.0.0.0/8', '11.1.2.3', 443, false],
    ['10.0.0.1', '10.0.0.10', 443, false],
    ['0.0.1', '10.0.0.1', 443, false],
    ['::1', '[::1]', 443, true],
    ['[::1]:8080', '[::1]', 8080, true],
    ['[::1]:8080', '[::1]', 80, false],
    ['localhost', '127.0.0.1', 443, false],
    ['', 'example.com', 443, false],
    ['*', 'anything.at.all', 1, true],
    ['a.com,, ,*', 'b.com', 443, true],
  ])('NO_PROXY=%j, %s:%i → direct %s', (list, host, port, direct) => {
    expect(new NoProxy(list).bypasses(host, port)).toBe(direct);
  });
});

describe('ProxySettings', () => {
  it('uses the https variable for https targets and the http one for http targets', () => {
    const settings = new ProxySettings({ HTTPS_PROXY: 'http://secure:1', HTTP_PROXY: 'http://plain:2' });
    expect(route(settings.choose(new URL('https://api.example.com/v1')))?.hostname).toBe('secure');
    expect(route(settings.choose(new URL('http://localhost:11434/v1')))?.hostname).toBe('plain');
  });

  it('prefers the lower-case name, and treats an empty value as unset', () => {
    const both = new ProxySettings({ https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' });
    expect(route(both.choose(new URL('https://x.test')))?.variable).toBe('https_proxy');
    const empty = new ProxySettings({ https_proxy: ' ', HTTPS_PROXY: 'http://upper:2' });
    expect(route(empty.choose(new URL('https://x.test')))?.variable).toBe('HTTPS_PROXY');
    const lowerNoProxy = new ProxySettings({ HTTPS_PROXY: 'http://p:1', no_proxy: 'other.test', NO_PROXY: 'x.test' });
    expect(route(lowerNoProxy.choose(new URL('https://x.test')))).toBeDefined();
  });

  it('goes direct without any variable, and NO_PROXY sees the default port', () => {
    expect(new ProxySettings({}).choose(new URL('https://x.test'))).toBeUndefined();
    const settings = new ProxySettings({ HTTPS_PROXY: 'http://p:1', NO_PROXY: 'x.test:443' });
    expect(settings.choose(new URL('https://x.test/v1'))).toBeUndefined();
    expect(settings.choose(new URL('https://x.test:8443/v1'))).toBeDefined();
  });
});

describe('parseProxyUrl', () => {
  it('reads host, port, scheme and percent-decoded credentials', () => {
    const parsed = parseProxyUrl('http://us%40er:p%3Ass@proxy.corp:3128', 'HTTPS_PROXY');
    expect(parsed).toMatchObject({
      protocol: 'http:',
      hostname: 'proxy.corp',
      port: 3128,
      authorization: `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`,
    });
  });

  it('takes a bare host:port as http, and the scheme default port when none is given', () => {
    expect(parseProxyUrl('proxy.corp:3128', 'HTTPS_PROXY')).toMatchObject({ protocol: 'http:', port: 3128 });
    expect(parseProxyUrl('http://proxy.corp', 'HTTPS_PROXY')).toMatchObject({ port: 80, authorization: undefined });
    expect(parseProxyUrl('https://proxy.corp', 'HTTPS_PROXY')).toMatchObject({ protocol: 'https:', port: 443 });
    expect(parseProxyUrl('http://[::1]:3128', 'HTTPS_PROXY')).toMatchObject({ hostname: '::1', port: 3128 });
  });

  it('refuses other schemes and broken URLs in one line that never repeats the value', () => {
    for (const value of ['socks5://u:topsecret@h:1080', 'http://u:topsecret@[broken', 'http://u:topsecret@:99']) {
      const parsed = parseProxyUrl(value, 'HTTPS_PROXY');
      expect(isMisconfigured(parsed)).toBe(true);
      expect(JSON.stringify(parsed)).not.toContain('topsecret');
    }
  });
});
