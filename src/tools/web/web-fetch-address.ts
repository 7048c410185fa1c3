/**
 * Which hosts WebFetch may reach. A URL must be http(s) with no credentials in it; a host whose address (any of
 * the addresses DNS gives) is loopback, private, link-local, carrier-grade NAT or unspecified is refused, so a
 * page the model was told about cannot make mca probe the local network or a cloud metadata endpoint. The one
 * exception is the user's own: hosts listed in the environment variable MCA_WEBFETCH_PRIVATE_HOSTS (comma
 * separated; the user's environment, never project config) may resolve to such addresses (a local dev server, and
 * the tests' loopback server). Known limit: the check resolves the name, the request resolves it again (DNS
 * rebinding between the two is not prevented).
 */
import { BlockList, isIP } from 'node:net';

/** The ranges WebFetch refuses, made on the first check (a session that fetches nothing never builds them). */
let privateRanges: BlockList | undefined;

function privateList(): BlockList {
  if (privateRanges) return privateRanges;
  const list = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  for (const [network, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv6');
  }
  privateRanges = list;
  return list;
}

/** True for an address WebFetch must not reach unless the user allowed the host. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return privateList().check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return privateList().check(address, 'ipv4');
  if (family === 6) return privateList().check(address, 'ipv6');
  return true;
}

/** The hosts the user allows to be private, lower case, from MCA_WEBFETCH_PRIVATE_HOSTS. */
export function privateHostsAllowed(env: Readonly<Record<string, string | undefined>>): ReadonlySet<string> {
  const list = env.MCA_WEBFETCH_PRIVATE_HOSTS ?? '';
  return new Set(
    list
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
  );
}

/** A URL's host as rules and the allow list name it: lower case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/** Undefined when `url` may be fetched; otherwise why not, in one sentence for the model. */
export async function addressProblem(url: URL, allowedPrivate: ReadonlySet<string>): Promise<string | undefined> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `${url.protocol} URLs cannot be fetched; only http:// and https://`;
  }
  if (url.username || url.password) return 'a URL with a user name or password in it is not fetched';
  const host = hostOf(url);
  if (allowedPrivate.has(host)) return undefined;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      // node:dns/promises is imported by the first fetch: loading it cost every start-up about 1.5 ms.
      const { lookup } = await import('node:dns/promises');
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      return `${host} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }
  const blocked = addresses.find((address) => isPrivateAddress(address));
  if (blocked === undefined) return undefined;
  return (
    `${host} is a loopback or private address (${blocked}); WebFetch reaches only public hosts unless the user ` +
    'lists the host in MCA_WEBFETCH_PRIVATE_HOSTS'
  );
}
