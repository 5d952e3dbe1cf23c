/**
 * The source policy's rules as PLAT_SOURCE_ALLOW and PLAT_SOURCE_DENY write them: parsed strictly,
 * matched as numbers whatever the spelling of an address, and bad values refused by the configuration.
 */
import { ConfigError, loadConfig } from '../../shared/config';
import {
  nat64Target,
  parseIp,
  parseSourceRules,
  ruleMatchesAddress,
  ruleMatchesHost,
  type SourceRule,
} from '../../shared/source-rules';
import { thrownBy } from '../harness/thrown';

const rule = (text: string): SourceRule => {
  const [only] = parseSourceRules(text);
  return only;
};
const inRange = (cidr: string, address: string) => ruleMatchesAddress(rule(cidr), parseIp(address)!);

describe('source rules', () => {
  it('matches IPv4 ranges at their edges', () => {
    expect(inRange('169.254.0.0/16', '169.254.0.0')).toBe(true);
    expect(inRange('169.254.0.0/16', '169.254.255.255')).toBe(true);
    expect(inRange('169.254.0.0/16', '169.253.255.255')).toBe(false);
    expect(inRange('169.254.0.0/16', '169.255.0.0')).toBe(false);
    expect(inRange('10.1.2.3', '10.1.2.3')).toBe(true);
    expect(inRange('10.1.2.3', '10.1.2.4')).toBe(false);
    expect(inRange('0.0.0.0/0', '203.0.113.9')).toBe(true);
  });

  it('matches IPv6 ranges however the address is written', () => {
    expect(inRange('fe80::/10', 'fe80::1')).toBe(true);
    expect(inRange('fe80::/10', 'FEBF:ffff::1')).toBe(true);
    expect(inRange('fe80::/10', 'fec0::1')).toBe(false);
    expect(inRange('fd00:ec2::254', 'fd00:0ec2:0000:0000:0000:0000:0000:0254')).toBe(true);
    expect(inRange('fd00:ec2::254', 'fd00:ec2::255')).toBe(false);
    expect(inRange('::1', '0:0:0:0:0:0:0:1')).toBe(true);
    // An IPv6 rule never matches an IPv4 address, nor the reverse.
    expect(inRange('::/0', '10.0.0.1')).toBe(false);
    expect(inRange('0.0.0.0/0', '2001:db8::1')).toBe(false);
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address it reaches', () => {
    for (const mapped of [
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '0:0:0:0:0:ffff:a9fe:a9fe',
      '::FFFF:A9FE:A9FE',
    ])
      expect([mapped, inRange('169.254.0.0/16', mapped)]).toEqual([mapped, true]);
    // A rule written in the mapped form is the IPv4 range it maps.
    expect(inRange('::ffff:169.254.0.0/112', '169.254.1.1')).toBe(true);
    expect(inRange('::ffff:169.254.0.0/112', '169.255.1.1')).toBe(false);
    // Not mapped: ::a9fe:a9fe (IPv4-compatible, unrouted) and ::fffe:a9fe:a9fe stay IPv6.
    expect(inRange('169.254.0.0/16', '::a9fe:a9fe')).toBe(false);
    expect(inRange('169.254.0.0/16', '::fffe:a9fe:a9fe')).toBe(false);
  });

  it('knows the IPv4 address a NAT64 address is translated to', () => {
    expect(nat64Target(parseIp('64:ff9b::a9fe:a9fe')!)).toEqual(parseIp('169.254.169.254'));
    expect(nat64Target(parseIp('64:ff9b::169.254.169.254')!)).toEqual(parseIp('169.254.169.254'));
    expect(nat64Target(parseIp('64:ff9c::a9fe:a9fe')!)).toBeUndefined();
    expect(nat64Target(parseIp('169.254.169.254')!)).toBeUndefined();
  });

  it('parses only the plain spellings of an address', () => {
    for (const odd of [
      '2852039166',
      '0xA9FEA9FE',
      '0251.0376.0251.0376',
      '169.254.43518',
      '0x7f.1',
      '169.254.169.254.',
      '169.254.169.254 ',
      '[::ffff:a9fe:a9fe]',
      'fe80::1%eth0',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      ':1:2:3:4:5:6:7',
      '::ffff:169.254.169',
      '::ffff:169.254.169.256',
      '12345::1',
      '',
      'localhost',
    ])
      expect([odd, parseIp(odd)]).toEqual([odd, undefined]);
    expect(parseIp('1:2:3:4:5:6:7::')).toEqual({ family: 6, value: 0x00010002000300040005000600070000n });
    expect(parseIp('::')).toEqual({ family: 6, value: 0n });
  });

  it('matches host names case-insensitively, without trailing dots, a wildcard only below its name', () => {
    const exact = rule('Metadata.Google.Internal.');
    expect(ruleMatchesHost(exact, 'metadata.google.internal')).toBe(true);
    expect(ruleMatchesHost(exact, 'x.metadata.google.internal')).toBe(false);
    expect(ruleMatchesHost(exact, 'metadata.google.internal.evil.example')).toBe(false);
    const below = rule('*.db.example.com');
    expect(ruleMatchesHost(below, 'eu.db.example.com')).toBe(true);
    expect(ruleMatchesHost(below, 'a.eu.db.example.com')).toBe(true);
    expect(ruleMatchesHost(below, 'db.example.com')).toBe(false);
    expect(ruleMatchesHost(below, 'evildb.example.com')).toBe(false);
    // A host rule never matches an address, nor a CIDR a name.
    expect(ruleMatchesAddress(exact, parseIp('169.254.169.254')!)).toBe(false);
    expect(ruleMatchesHost(rule('10.0.0.0/8'), '10.0.0.1')).toBe(false);
  });

  it('reads a comma-separated list, blanks and empty entries ignored', () => {
    expect(parseSourceRules(' 10.0.0.0/8 , db.example.com,,fd00::/8, ').map((r) => r.text)).toEqual([
      '10.0.0.0/8',
      'db.example.com',
      'fd00::/8',
    ]);
    expect(parseSourceRules('')).toEqual([]);
  });

  it.each([
    ['10.0.0.1/8', 'has address bits set after the first 8'],
    ['10.0.0.0/33', 'prefix length must be a number 0-32'],
    ['fd00::/129', 'prefix length must be a number 0-128'],
    ['10.0.0.0/08', 'prefix length'],
    ['10.0.0.0/', 'prefix length'],
    ['10.0.0.0/8/8', 'not a CIDR'],
    ['::ffff:0:0/80', 'more than the IPv4-mapped range'],
    ['2852039166', 'not a CIDR'],
    ['010.0.0.1', 'not a CIDR'],
    ['0xA9FEA9FE', 'looks like an IPv4 address'],
    ['db.0x10', 'looks like an IPv4 address'],
    ['a..b', 'neither a CIDR nor a host name'],
    ['-db.example.com', 'neither a CIDR nor a host name'],
    ['evil@169.254.169.254', 'neither a CIDR nor a host name'],
    ['db.example.com:3306', 'not a CIDR'],
    ['[::1]', 'not a CIDR'],
    ['*', 'neither a CIDR nor a host name'],
    ['*.', 'neither a CIDR nor a host name'],
    ['db example', 'neither a CIDR nor a host name'],
    [`${'a'.repeat(64)}.example.com`, 'neither a CIDR nor a host name'],
  ])('refuses %j in a setting, saying why', (entry, why) => {
    for (const variable of ['PLAT_SOURCE_ALLOW', 'PLAT_SOURCE_DENY']) {
      const error = thrownBy(() => loadConfig({ [variable]: `10.0.0.0/8,${entry}` }));
      expect(error).toBeInstanceOf(ConfigError);
      const [problem] = (error as ConfigError).problems;
      expect(problem.variable).toBe(variable);
      expect(problem.expected).toMatch(/^comma-separated CIDRs and host names/);
      expect(problem.expected).toContain(why);
    }
  });

  it('accepts the settings it documents, and none', () => {
    const config = loadConfig({
      PLAT_SOURCE_ALLOW: '10.0.0.0/8, fd00::/8, db.example.com, *.db.example.com, 192.0.2.7',
      PLAT_SOURCE_DENY: '10.9.0.0/16,legacy-db',
    });
    expect(config.PLAT_SOURCE_ALLOW).toContain('*.db.example.com');
    expect(loadConfig({}).PLAT_SOURCE_ALLOW).toBeUndefined();
  });
});
