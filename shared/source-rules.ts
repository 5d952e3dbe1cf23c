/**
 * The rules of the source policy as PLAT_SOURCE_ALLOW and PLAT_SOURCE_DENY write them: CIDRs (IPv4,
 * IPv6) and host names, comma-separated. Parsed strictly and matched as numbers, so that no spelling
 * of an address (IPv4-mapped IPv6, zeros left out) slips past a rule (docs/security.md#sources).
 * Pure: config validation uses it.
 */

/** An IP address as a number of 32 (family 4) or 128 (family 6) bits. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

/** A range of addresses: `base/prefix`. */
export interface CidrRule extends IpAddress {
  kind: 'cidr';
  prefix: number;
  /** As the setting wrote it, for messages. */
  text: string;
}

/** A host name as a JDBC URL gives it; `*.example.com` is every name under example.com. */
export interface HostRule {
  kind: 'host';
  /** Lower case, without trailing dots or the `*.` of a wildcard. */
  name: string;
  subdomains: boolean;
  text: string;
}

export type SourceRule = CidrRule | HostRule;

export class SourceRuleError extends Error {}

const BITS = { 4: 32, 6: 128 } as const;

/** `a.b.c.d` in decimal, no leading zeros: the one IPv4 spelling a rule may use. */
function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** The 16-bit groups of one side of `::`, the last one possibly an embedded IPv4 address. */
function groupsOf(side: string, mayEndInIpv4: boolean): number[] | undefined {
  if (side === '') return [];
  const groups: number[] = [];
  const parts = side.split(':');
  for (const [i, part] of parts.entries()) {
    if (mayEndInIpv4 && i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === undefined) return undefined;
      groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) groups.push(parseInt(part, 16));
    else return undefined;
  }
  return groups;
}

/** RFC 4291 text form, `::` and a trailing dotted IPv4 included; no zone, no brackets. */
function parseIpv6(text: string): bigint | undefined {
  const gap = text.indexOf('::');
  if (gap !== text.lastIndexOf('::')) return undefined;
  const left = groupsOf(gap < 0 ? text : text.slice(0, gap), gap < 0);
  const right = gap < 0 ? [] : groupsOf(text.slice(gap + 2), true);
  if (!left || !right) return undefined;
  const given = left.length + right.length;
  if (gap < 0 ? given !== 8 : given > 7) return undefined;
  const groups = [...left, ...Array<number>(8 - given).fill(0), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

const MAPPED_PREFIX = 0xffffn << 32n;
const NAT64_PREFIX = 0x64ff9bn << 96n;
const LOW_32 = 0xffffffffn;

/**
 * The address as it is reached: an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4 address
 * it carries, so rules written for IPv4 hold for it too.
 */
export function canonicalIp(ip: IpAddress): IpAddress {
  return ip.family === 6 && ip.value >> 32n === MAPPED_PREFIX >> 32n
    ? { family: 4, value: ip.value & LOW_32 }
    : ip;
}

/** A literal IP address, canonical (see {@link canonicalIp}); undefined for anything else. */
export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIpv6(text);
  return v6 === undefined ? undefined : canonicalIp({ family: 6, value: v6 });
}

/**
 * The IPv4 address a NAT64 address (`64:ff9b::/96`) is translated to: a gateway in the network
 * would reach it for us, so denials of that IPv4 address hold for it.
 */
export function nat64Target(ip: IpAddress): IpAddress | undefined {
  return ip.family === 6 && ip.value >> 32n === NAT64_PREFIX >> 32n
    ? { family: 4, value: ip.value & LOW_32 }
    : undefined;
}

/** Lower case, without the trailing dots of a fully qualified name. */
export function normalizeHostName(host: string): string {
  return host.toLowerCase().replace(/\.+$/, '');
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

function parseCidr(text: string): CidrRule {
  const [address, prefixText, extra] = text.split('/');
  const ip = parseIp(address);
  if (!ip || extra !== undefined)
    throw new SourceRuleError(`"${text}" is not a CIDR (a.b.c.d/n or an IPv6 address/n)`);
  const written = address.includes(':') ? 128 : 32;
  if (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText))
    throw new SourceRuleError(`"${text}": the prefix length must be a number 0-${written}`);
  const writtenPrefix = prefixText === undefined ? written : Number(prefixText);
  if (writtenPrefix > written)
    throw new SourceRuleError(`"${text}": the prefix length must be a number 0-${written}`);
  // An IPv4-mapped range written in IPv6 is the IPv4 range it maps.
  const prefix = ip.family === 4 && written === 128 ? writtenPrefix - 96 : writtenPrefix;
  if (prefix < 0) throw new SourceRuleError(`"${text}" covers more than the IPv4-mapped range ::ffff:0:0/96`);
  const hostBits = BigInt(BITS[ip.family] - prefix);
  if (ip.value & ((1n << hostBits) - 1n))
    throw new SourceRuleError(`"${text}" has address bits set after the first ${writtenPrefix}`);
  return { kind: 'cidr', family: ip.family, value: ip.value, prefix, text };
}

function parseHostRule(text: string): HostRule {
  const subdomains = text.startsWith('*.');
  const name = normalizeHostName(subdomains ? text.slice(2) : text);
  const labels = name.split('.');
  if (name.length > 253 || !labels.every((label) => LABEL.test(label)))
    throw new SourceRuleError(
      `"${text}" is neither a CIDR nor a host name (letters, digits, - and _ in dot-separated labels; *.name for every name under it)`,
    );
  // What the resolver would read as a number (2852039166, 0xa9fea9fe, 10.1) is an address, not a name.
  if (/^([0-9]+|0x[0-9a-f]*)$/.test(labels[labels.length - 1]))
    throw new SourceRuleError(
      `"${text}" looks like an IPv4 address: write it as four decimal numbers a.b.c.d`,
    );
  return { kind: 'host', name, subdomains, text };
}

/**
 * The rules of one setting: entries separated by commas (blanks around them ignored), each a CIDR,
 * an IP address (a CIDR of one address) or a host name. Throws {@link SourceRuleError} naming the
 * first bad entry.
 */
export function parseSourceRules(text: string): SourceRule[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => (/^[0-9.]+(\/|$)|:/.test(entry) ? parseCidr(entry) : parseHostRule(entry)));
}

/** Whether `ip` (canonical) lies in the rule's range; host rules match no address. */
export function ruleMatchesAddress(rule: SourceRule, ip: IpAddress): boolean {
  if (rule.kind !== 'cidr' || rule.family !== ip.family) return false;
  const hostBits = BigInt(BITS[ip.family] - rule.prefix);
  return ip.value >> hostBits === rule.value >> hostBits;
}

/** Whether a host name (normalized) is the rule's name, or under it for a wildcard. */
export function ruleMatchesHost(rule: SourceRule, host: string): boolean {
  if (rule.kind !== 'host') return false;
  return rule.subdomains ? host.endsWith(`.${rule.name}`) : host === rule.name;
}
