/**
 * Which proxy a request goes through, from the environment as curl reads it: `https_proxy`/`HTTPS_PROXY` for https
 * targets, `http_proxy`/`HTTP_PROXY` for http targets (the lower-case name wins when both are set; an empty value
 * counts as unset), and `no_proxy`/`NO_PROXY` for the hosts that go direct. Loopback targets are not exempt unless
 * NO_PROXY lists them (curl does the same). Unlike curl we honour upper-case HTTP_PROXY too, as Claude Code does:
 * curl ignores it only because of CGI (httpoxy), which a terminal program is not.
 *
 * NO_PROXY: entries separated by commas and/or spaces; `*` alone = no proxy for anything; `example.com`,
 * `.example.com` and `*.example.com` all match example.com and every subdomain; `host:port` (or `[v6]:port`)
 * matches that port only; an IP address matches exactly and `10.0.0.0/8`-style CIDR ranges match their addresses.
 */
import { BlockList, isIP } from 'node:net';
import { scrubSecrets } from './error-text.js';

/** A proxy a request goes through, ready to use. */
export interface ProxyRoute {
  /** http: or https: (the connection to the proxy itself). */
  readonly protocol: 'http:' | 'https:';
  /** Host name or IP (IPv6 without brackets). */
  readonly hostname: string;
  readonly port: number;
  /** `Basic …` when the URL carried credentials; sent on CONNECT only. */
  readonly authorization: string | undefined;
  /** The variable it came from, named in messages. */
  readonly variable: string;
  /** The credentials in every form that could show up in a message. */
  readonly secrets: readonly string[];
}

/** The proxy variable is set but unusable: every request it would carry fails with this one line. */
export interface ProxyMisconfigured {
  readonly problem: string;
}

export type ProxyChoice = ProxyRoute | ProxyMisconfigured | undefined;

export function isMisconfigured(choice: ProxyChoice): choice is ProxyMisconfigured {
  return choice !== undefined && 'problem' in choice;
}

/** `host:port` as a CONNECT request and messages name it (IPv6 in brackets). */
export function authorityOf(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** `host:port` of the proxy for messages: never its credentials. */
export function proxyDisplay(route: ProxyRoute): string {
  return authorityOf(route.hostname, route.port);
}

/** Replaces the proxy's credentials in a message. */
export function scrubProxySecrets(text: string, route: ProxyRoute): string {
  return scrubSecrets(text, route.secrets);
}

type Environment = Readonly<Record<string, string | undefined>>;

/** The first of the names set to a non-empty value, with its name. */
function firstSet(env: Environment, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Parses a proxy URL; a bare `host:port` means http:// (as in curl). */
export function parseProxyUrl(value: string, variable: string): ProxyRoute | ProxyMisconfigured {
  const expected = 'expected http://[user:password@]host:port';
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    // The value itself is not repeated: it may hold a password.
    return { problem: `${variable} is not a valid proxy URL; ${expected}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `${variable} uses ${url.protocol}//, which mca does not support; ${expected}` };
  }
  if (url.hostname === '') return { problem: `${variable} names no proxy host; ${expected}` };
  const user = decoded(url.username);
  const password = decoded(url.password);
  const hasCredentials = url.username !== '' || url.password !== '';
  const token = Buffer.from(`${user}:${password}`).toString('base64');
  return {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
    authorization: hasCredentials ? `Basic ${token}` : undefined,
    variable,
    secrets: hasCredentials
      ? [url.password, password, token, `${url.username}:${url.password}`, `${user}:${password}`].filter(Boolean)
      : [],
  };
}

interface NoProxyRule {
  /** Lower case, no brackets, no leading dot. */
  host: string;
  /** undefined: any port. */
  port: number | undefined;
}

/** The parsed NO_PROXY list. */
export class NoProxy {
  private readonly everything: boolean;
  private readonly rules: NoProxyRule[] = [];
  private readonly ranges = new BlockList();

  constructor(list: string) {
    const entries = list
      .toLowerCase()
      .split(/[\s,]+/)
      .filter((entry) => entry !== '');
    this.everything = entries.includes('*');
    for (const entry of entries) this.add(entry);
  }

  private add(entry: string): void {
    const cidr = /^([0-9a-f:.]+)\/(\d{1,3})$/.exec(entry);
    if (cidr?.[1] !== undefined && cidr[2] !== undefined) {
      const family = isIP(cidr[1]);
      const bits = Number(cidr[2]);
      if (family !== 0 && bits <= (family === 4 ? 32 : 128)) {
        this.ranges.addSubnet(cidr[1], bits, family === 4 ? 'ipv4' : 'ipv6');
      }
      return;
    }
    let host = entry;
    let port: number | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const withPort = /^([^:]+):(\d+)$/.exec(entry);
    if (bracketed?.[1] !== undefined) {
      host = bracketed[1];
      port = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
    } else if (withPort?.[1] !== undefined) {
      host = withPort[1];
      port = Number(withPort[2]);
    }
    host = host.replace(/^\*?\./, '');
    if (host !== '' && host !== '*') this.rules.push({ host, port });
  }

  /** True when a request to hostname:port goes direct. */
  bypasses(hostname: string, port: number): boolean {
    if (this.everything) return true;
    const host = hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
    const family = isIP(host);
    if (family !== 0 && this.ranges.check(host, family === 4 ? 'ipv4' : 'ipv6')) return true;
    return this.rules.some(
      (rule) =>
        (rule.port === undefined || rule.port === port) &&
        (host === rule.host || (family === 0 && host.endsWith(`.${rule.host}`))),
    );
  }
}

/** The proxy settings of one transport, read once when it is created. */
export class ProxySettings {
  private readonly https: ProxyChoice;
  private readonly http: ProxyChoice;
  private readonly noProxy: NoProxy;

  constructor(env: Environment) {
    const https = firstSet(env, ['https_proxy', 'HTTPS_PROXY']);
    const http = firstSet(env, ['http_proxy', 'HTTP_PROXY']);
    this.https = https && parseProxyUrl(https.value, https.name);
    this.http = http && parseProxyUrl(http.value, http.name);
    this.noProxy = new NoProxy(firstSet(env, ['no_proxy', 'NO_PROXY'])?.value ?? '');
  }

  /** The proxy for a request to `url`, undefined when it goes direct. */
  choose(url: URL): ProxyChoice {
    const choice = url.protocol === 'https:' ? this.https : url.protocol === 'http:' ? this.http : undefined;
    if (choice === undefined) return undefined;
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return this.noProxy.bypasses(url.hostname, port) ? undefined : choice;
  }
}
