import { addressKey } from '../../gateway/auth/address-key';

describe('the key a client address is counted under', () => {
  it('counts an IPv4 address as itself, also when written as IPv6', () => {
    expect(addressKey('203.0.113.7')).toBe('v4:203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('v4:203.0.113.7');
    expect(addressKey('::FFFF:203.0.113.7')).toBe('v4:203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const one = [
      '2001:db8:0:1::1',
      '2001:0db8:0000:0001:ffff:ffff:ffff:ffff',
      '2001:db8:0:1:1234:5678:9abc:def0',
      '2001:DB8:0:1::',
      '2001:db8:0:1::1.2.3.4',
      '2001:db8:0:1::1%eth0',
    ];
    expect(new Set(one.map(addressKey))).toEqual(new Set(['v6:2001:db8:0:1::/64']));
    expect(addressKey('2001:db8:0:2::1')).toBe('v6:2001:db8:0:2::/64');
    expect(addressKey('::1')).toBe('v6:0:0:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('v6:2001:db8:0:0::/64');
  });

  it('keeps what is no address apart, short', () => {
    expect(addressKey(undefined)).toBe('other:unknown');
    expect(addressKey('')).toBe('other:unknown');
    expect(addressKey('x'.repeat(500))).toBe(`other:${'x'.repeat(64)}`);
    expect(addressKey('1.2.3.4, 5.6.7.8')).toBe('other:1.2.3.4, 5.6.7.8');
    expect(addressKey('2001:db8:::1')).toMatch(/^other:/);
  });
});
