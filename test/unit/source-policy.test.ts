/**
 * The source policy: what it refuses by default, with the settings, and for plat's own services;
 * every address a name resolves to is checked, whatever the spelling of the host in the JDBC URL.
 * Names under `.test` resolve through a table (a stand-in for DNS); everything else through the
 * system's resolver, as the MySQL driver would.
 */
import { loadConfig } from '../../shared/config';
import { parseJdbcUrl } from '../../shared/mysql-source';
import { SourceNotAllowedError, sourceConnector } from '../../domain/sources/mysql-connection';
import { SourcePolicy, systemResolver, type Resolver } from '../../domain/sources/source-policy';

/** A resolver answering `table` for its names and the system's answer for the rest; it notes each question. */
function dnsTable(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: Resolver = async (host) => {
    asked.push(host);
    return table[host] ?? systemResolver(host);
  };
  return { asked, resolve };
}

const target = (url: string) => parseJdbcUrl(url);

/** The address the policy admits, or the code of its refusal (SOURCE_NOT_ALLOWED, ENOTFOUND, ...). */
async function verdict(policy: SourcePolicy, url: string): Promise<string> {
  return policy.admit(target(url)).then(
    (address) => `admit ${address}`,
    (err: { code?: string }) => err.code ?? 'error',
  );
}

describe('source policy', () => {
  const builtIn = new SourcePolicy();

  it('refuses link-local, cloud metadata, unspecified, broadcast and multicast addresses by default', async () => {
    for (const host of [
      '169.254.169.254',
      '169.254.0.1',
      '[fe80::1]',
      '[fd00:ec2::254]',
      '100.100.100.200',
      '0.0.0.0',
      '0.1.2.3',
      '[::]',
      '255.255.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '[ff02::1]',
    ])
      expect([host, await verdict(builtIn, `jdbc:mysql://${host}:3306/db`)]).toEqual([
        host,
        'SOURCE_NOT_ALLOWED',
      ]);
  });

  it('admits other addresses, loopback included, and answers the address to connect to', async () => {
    expect(await verdict(builtIn, 'jdbc:mysql://127.0.0.1:3307/demo_store')).toBe('admit 127.0.0.1');
    expect(await verdict(builtIn, 'jdbc:mysql://[::1]:3307/demo_store')).toBe('admit ::1');
    expect(await verdict(builtIn, 'jdbc:mysql://203.0.113.5/db')).toBe('admit 203.0.113.5');
    expect(await verdict(builtIn, 'jdbc:mysql://[2001:db8::5]/db')).toBe('admit 2001:db8::5');
    expect(await verdict(builtIn, 'jdbc:mysql://localhost:3307/db')).toMatch(/^admit (127\.0\.0\.1|::1)$/);
  });

  it('refuses every spelling of the metadata address the resolver accepts', async () => {
    for (const host of [
      '2852039166',
      '0xA9FEA9FE',
      '0xa9fea9fe',
      '0251.0376.0251.0376',
      '169.254.43518',
      '[::ffff:a9fe:a9fe]',
      '[0:0:0:0:0:ffff:a9fe:a9fe]',
      '[64:ff9b::a9fe:a9fe]',
    ])
      expect([host, await verdict(builtIn, `jdbc:mysql://${host}/db`)]).toEqual([host, 'SOURCE_NOT_ALLOWED']);
    // The URL pattern takes no dotted IPv4 inside brackets at all.
    expect(() => target('jdbc:mysql://[::ffff:169.254.169.254]/db')).toThrow();
  });

  it('resolves exactly the host the URL parser found, and connects to nothing it did not check', async () => {
    // Userinfo is not part of the JDBC pattern: the whole of it is the host, which is what gets resolved.
    const withUser = target('jdbc:mysql://evil@169.254.169.254/db');
    expect(withUser.host).toBe('evil@169.254.169.254');
    const dns = dnsTable({});
    const policy = new SourcePolicy({ resolve: dns.resolve });
    expect(await verdict(policy, 'jdbc:mysql://evil@169.254.169.254/db')).not.toMatch(/^admit/);
    expect(dns.asked).toEqual(['evil@169.254.169.254']);
    // Had a resolver answered for it, its answer would be checked like any other.
    const lenient = new SourcePolicy({
      resolve: dnsTable({ 'evil@169.254.169.254': ['169.254.169.254'] }).resolve,
    });
    expect(await verdict(lenient, 'jdbc:mysql://evil@169.254.169.254/db')).toBe('SOURCE_NOT_ALLOWED');
    const trailing = new SourcePolicy({
      resolve: dnsTable({ '169.254.169.254.': ['169.254.169.254'] }).resolve,
    });
    expect(await verdict(trailing, 'jdbc:mysql://169.254.169.254./db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(builtIn, 'jdbc:mysql://169.254.169.254./db')).not.toMatch(/^admit/);
  });

  it('refuses the metadata host name however it is written, without resolving it', async () => {
    const dns = dnsTable({});
    const policy = new SourcePolicy({ resolve: dns.resolve });
    for (const host of [
      'metadata.google.internal',
      'METADATA.Google.Internal',
      'metadata.google.internal.',
      'metadata.google.internal..',
    ])
      expect([host, await verdict(policy, `jdbc:mysql://${host}/db`)]).toEqual([host, 'SOURCE_NOT_ALLOWED']);
    expect(dns.asked).toEqual([]);
  });

  it('checks every address a name resolves to, and refuses one that resolves to nothing', async () => {
    const dns = dnsTable({
      'mixed.test': ['203.0.113.5', '169.254.169.254'],
      'mapped.test': ['::ffff:169.254.169.254'],
      'public.test': ['2001:db8::7', '203.0.113.7'],
      'nothing.test': [],
    });
    const policy = new SourcePolicy({ resolve: dns.resolve });
    expect(await verdict(policy, 'jdbc:mysql://mixed.test/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://mapped.test/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://public.test/db')).toBe('admit 2001:db8::7');
    expect(await verdict(policy, 'jdbc:mysql://nothing.test/db')).toBe('ENOTFOUND');
    expect(await verdict(builtIn, 'jdbc:mysql://no-such-host.invalid/db')).toBe('ENOTFOUND');
  });

  it('says only that the source is not allowed, not which rule or address refused it', async () => {
    const policy = new SourcePolicy({ resolve: dnsTable({ 'inside.test': ['169.254.169.254'] }).resolve });
    const err = await policy.admit(target('jdbc:mysql://inside.test:3306/db')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceNotAllowedError);
    expect(err).toMatchObject({
      message: 'inside.test:3306 is not allowed by the source policy',
      code: 'SOURCE_NOT_ALLOWED',
      retryable: false,
    });
    // The reason is for plat's logs.
    expect((err as SourceNotAllowedError).reason).toBe('169.254.169.254 is denied by 169.254.0.0/16');
  });

  it('narrows to PLAT_SOURCE_ALLOW, names and ranges, and the denials still win', async () => {
    const dns = dnsTable({
      'db.example.test': ['198.51.100.10'],
      'eu.db.example.test': ['198.51.100.11'],
      'rebound.example.test': ['169.254.169.254'],
      'other.test': ['198.51.100.12'],
    });
    const policy = SourcePolicy.fromConfig(
      loadConfig({
        PLAT_SOURCE_ALLOW:
          '10.0.0.0/8,fd00::/8,db.example.test,*.db.example.test,rebound.example.test,169.254.0.0/16',
        PLAT_SOURCE_DENY: '10.9.0.0/16',
      }),
      dns.resolve,
    );
    expect(await verdict(policy, 'jdbc:mysql://10.1.2.3/db')).toBe('admit 10.1.2.3');
    expect(await verdict(policy, 'jdbc:mysql://[fd12::1]/db')).toBe('admit fd12::1');
    expect(await verdict(policy, 'jdbc:mysql://db.example.test/db')).toBe('admit 198.51.100.10');
    expect(await verdict(policy, 'jdbc:mysql://eu.db.example.test/db')).toBe('admit 198.51.100.11');
    expect(await verdict(policy, 'jdbc:mysql://other.test/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://11.0.0.1/db')).toBe('SOURCE_NOT_ALLOWED');
    // Loopback is allowed only by default; an allow list that does not name it leaves it out.
    expect(await verdict(policy, 'jdbc:mysql://127.0.0.1:3307/db')).toBe('SOURCE_NOT_ALLOWED');
    // Deny wins: the setting's, and the built-in ones even when allowed by range or by name.
    expect(await verdict(policy, 'jdbc:mysql://10.9.0.1/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://169.254.169.254/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://rebound.example.test/db')).toBe('SOURCE_NOT_ALLOWED');
  });

  it('adds PLAT_SOURCE_DENY to the built-in denials, by range and by name', async () => {
    const dns = dnsTable({ 'legacy-db': ['198.51.100.20'], 'ok.test': ['198.51.100.21'] });
    const policy = SourcePolicy.fromConfig(
      loadConfig({ PLAT_SOURCE_DENY: '10.9.0.0/16,legacy-db' }),
      dns.resolve,
    );
    expect(await verdict(policy, 'jdbc:mysql://10.9.200.1/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://legacy-db/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://10.8.0.1/db')).toBe('admit 10.8.0.1');
    expect(await verdict(policy, 'jdbc:mysql://ok.test/db')).toBe('admit 198.51.100.21');
    expect(await verdict(policy, 'jdbc:mysql://169.254.169.254/db')).toBe('SOURCE_NOT_ALLOWED');
  });

  it("refuses plat's own services at their address and port, by any name or spelling of it", async () => {
    const dns = dnsTable({
      'temporal.test': ['10.0.0.7'],
      'alias-of-temporal.test': ['10.0.0.7'],
      'db.test': ['10.0.0.8'],
      'search.test': ['10.0.0.9'],
    });
    const policy = SourcePolicy.fromConfig(
      loadConfig({
        TEMPORAL_ADDRESS: 'temporal.test:7233',
        PLAT_METADATA_URL: 'postgres://plat:secret@db.test/plat',
        PLAT_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
        OPENSEARCH_URL: 'https://search.test',
        PLAT_GATEWAY_PORT: '8081',
      }),
      dns.resolve,
    );
    for (const url of [
      'jdbc:mysql://temporal.test:7233/db',
      'jdbc:mysql://TEMPORAL.test.:7233/db',
      'jdbc:mysql://alias-of-temporal.test:7233/db',
      'jdbc:mysql://10.0.0.7:7233/db',
      'jdbc:mysql://[::ffff:a00:7]:7233/db',
      'jdbc:mysql://db.test:5432/db',
      'jdbc:mysql://10.0.0.9:443/db',
      // Services on this machine: any local address reaches them.
      'jdbc:mysql://127.0.0.1:8081/db',
      'jdbc:mysql://localhost:8081/db',
      'jdbc:mysql://127.0.0.2:8081/db',
      'jdbc:mysql://[::1]:8230/db',
      'jdbc:mysql://127.0.0.1:8230/db',
    ])
      expect([url, await verdict(policy, url)]).toEqual([url, 'SOURCE_NOT_ALLOWED']);
    // The same hosts on other ports, and the local demo database, stay allowed.
    expect(await verdict(policy, 'jdbc:mysql://temporal.test:3306/db')).toBe('admit 10.0.0.7');
    expect(await verdict(policy, 'jdbc:mysql://10.0.0.8:3306/db')).toBe('admit 10.0.0.8');
    expect(await verdict(policy, 'jdbc:mysql://127.0.0.1:3307/demo_store')).toBe('admit 127.0.0.1');
    expect(await verdict(policy, 'jdbc:mysql://127.0.0.1:7233/db')).toBe('admit 127.0.0.1');
  });

  it('refuses the embedded Temporal dev server on this machine when no cluster is configured', async () => {
    const policy = SourcePolicy.fromConfig(loadConfig({ TEMPORAL_DEV_PORT: '7299' }));
    expect(await verdict(policy, 'jdbc:mysql://127.0.0.1:7299/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://127.0.0.1:8233/db')).toBe('SOURCE_NOT_ALLOWED');
    expect(await verdict(policy, 'jdbc:mysql://127.0.0.1:7233/db')).toBe('admit 127.0.0.1');
  });

  it('a connector refuses before sending anything, and says so as not retryable', async () => {
    const refused = await sourceConnector(target('jdbc:mysql://169.254.169.254/db'), 'u', 'p', 60_000)
      .connect()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SourceNotAllowedError);
    expect(refused).toMatchObject({ code: 'SOURCE_NOT_ALLOWED', retryable: false });
  });
});
