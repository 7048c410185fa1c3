/**
 * Which hosts the box's proxy connects to, by host name (DESIGN.md "Sandbox"): an entry is a name (`example.com`),
 * a wildcard for its subdomains (`*.example.com`) or an address written as is (`127.0.0.1`). A denied entry wins
 * over an allowed one. The proxy resolves the name itself and connects to that address: a name allowed only through
 * a wildcard that resolves to a private, loopback or link-local address is refused (the list never named that
 * address), so a public domain cannot be pointed at the machine's own services by its DNS answer.
 */
import { isIP } from 'node:net';

export type HostVerdict =
  { allowed: true; exact: boolean } | { allowed: false; reason: 'denied' | 'not-listed' | 'private-address' };

function normalise(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

function matches(entry: string, host: string): 'exact' | 'wildcard' | undefined {
  const pattern = normalise(entry);
  if (pattern === host) return 'exact';
  if (pattern.startsWith('*.') && host.endsWith(pattern.slice(1))) return 'wildcard';
  return undefined;
}

/** Whether a connection to `host` may be made at all (before resolving it). */
export function judgeHost(host: string, allowed: readonly string[], denied: readonly string[]): HostVerdict {
  const name = normalise(host);
  if (denied.some((entry) => matches(entry, name) !== undefined)) return { allowed: false, reason: 'denied' };
  let best: 'exact' | 'wildcard' | undefined;
  for (const entry of allowed) {
    const how = matches(entry, name);
    if (how === 'exact') best = 'exact';
    else if (how === 'wildcard' && best === undefined) best = 'wildcard';
  }
  if (best === undefined) return { allowed: false, reason: 'not-listed' };
  return { allowed: true, exact: best === 'exact' };
}

/** Loopback, private (RFC 1918, unique local), link-local, unspecified and CGNAT addresses. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (kind === 6) {
    const lower = address.toLowerCase();
    if (lower === '::1' || lower === '::') return true;
    if (lower.startsWith('::ffff:')) return isPrivateAddress(lower.slice(7));
    return /^(fc|fd|fe8|fe9|fea|feb)/.test(lower);
  }
  return false;
}
