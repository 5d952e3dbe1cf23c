/**
 * The key a client address is counted under (docs/security.md#sign-in-and-sockets). An IPv4 address
 * is one client; an IPv6 host is normally given a whole /64 and can pick any of its 2^64 addresses,
 * so IPv6 clients are counted by their /64. An IPv4 address written as IPv6 (`::ffff:203.0.113.7`)
 * counts as that IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** `v4:203.0.113.7`, `v6:2001:db8:0:1::/64`, or `other:<text>` for what is no address (cut to 64 characters). */
export function addressKey(ip: string | undefined): string {
  const text = (ip ?? '').trim();
  if (isIPv4(text)) return `v4:${text}`;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped && isIPv4(mapped[1])) return `v4:${mapped[1]}`;
  // A zone (`fe80::1%eth0`) names an interface, not another client.
  const bare = text.replace(/%.*$/, '');
  if (isIPv6(bare)) return `v6:${prefix64(bare)}::/64`;
  return `other:${text.slice(0, 64) || 'unknown'}`;
}

/** The first four groups of an IPv6 address, without leading zeros (`2001:db8:0:1`). */
function prefix64(address: string): string {
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (`::1.2.3.4`) fills the last two groups, outside the /64.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = address.includes('::')
    ? [...left, ...Array(8 - width(left) - width(right)).fill('0'), ...right]
    : left;
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':');
}
