/**
 * PLAT_TRUST_PROXY: which reverse proxies may name the client in X-Forwarded-For, in the forms
 * Express's `trust proxy` accepts. Trusting every address is not one of them: any client could
 * then pick its own address and escape the per-address sign-in limits.
 */
import { isIP } from 'node:net';

/** A number of hops, or the proxies' addresses, CIDRs and named ranges. */
export type TrustProxy = number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy as an address, a CIDR or a named range; throws with the reason otherwise. */
function checkProxy(entry: string): string {
  if (NAMED_RANGES.has(entry)) return entry;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  const maxBits = family === 6 ? 128 : 32;
  if (
    !family ||
    extra !== undefined ||
    (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))
  )
    throw new Error(
      `${JSON.stringify(entry.slice(0, 60))} is not an address, a CIDR, loopback, linklocal or uniquelocal`,
    );
  return entry;
}

/** Parses PLAT_TRUST_PROXY; throws with a message naming the accepted forms. */
export function parseTrustProxy(value: string): TrustProxy {
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) throw new Error('a number of proxy hops, 1-10');
    return hops;
  }
  if (value.trim() === 'true')
    throw new Error(
      'name the proxies (or their number of hops): true would let any client choose its address',
    );
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!entries.length)
    throw new Error(
      'a number of hops, or comma-separated addresses, CIDRs, loopback, linklocal, uniquelocal',
    );
  return entries.map(checkProxy);
}
