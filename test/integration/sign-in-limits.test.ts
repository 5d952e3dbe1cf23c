/**
 * Password guessing through the real gateways: failures per user name and attempts per client
 * address are counted in the shared metadata store, so two gateways on one PostgreSQL enforce one
 * limit (the default settings: 10 failures per name, 30 attempts per address and minute). The
 * gateways trust a proxy on loopback, so each request names its client in X-Forwarded-For, as a
 * proxy in front of them would.
 */
import { Client, Connection } from '@temporalio/client';
import { harness } from '../harness/harness-state';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { freshPostgresDatabase } from '../harness/postgres';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: { code: string; message: string }; id_token?: string };
}

describe('sign-in limits', () => {
  let connection: Connection;
  let a: TestGateway;
  let b: TestGateway;
  let alone: TestGateway;

  beforeAll(async () => {
    // Sign-in needs no workflow: a connection made only when a call needs it.
    connection = Connection.lazy({ address: harness().temporal.address });
    const client = new Client({ connection });
    const shared = {
      PLAT_METADATA_URL: await freshPostgresDatabase('sign-in-limits'),
      PLAT_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
      PLAT_TRUST_PROXY: 'loopback',
    };
    a = await startTestGateway({ client, taskQueue: 'sign-in-limits', env: shared });
    b = await startTestGateway({ client, taskQueue: 'sign-in-limits', env: shared });
    // On its own embedded store, with no proxy trusted.
    alone = await startTestGateway({ client, taskQueue: 'sign-in-limits' });
  });
  afterAll(async () => {
    await Promise.all([a, b, alone].map((g) => g?.stop()));
    await connection?.close();
  });

  const post = async (
    gateway: TestGateway,
    route: '/auth/login' | '/auth/signup',
    body: unknown,
    client: string,
  ): Promise<Answer> => {
    const res = await fetch(`${gateway.base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as Answer['body'],
    };
  };
  /** A client address of its own for each call, so only the per-name limit applies. */
  let next = 0;
  const someone = () => `203.0.113.${++next}`;

  it('refuses an 11th guess at a name with 429, on either gateway, even with the right password', async () => {
    expect(
      (await post(a, '/auth/signup', { username: 'ana', password: 'correct horse' }, someone())).status,
    ).toBe(201);
    for (let i = 0; i < 10; i++) {
      const guess = await post(
        i % 2 ? a : b,
        '/auth/login',
        { username: 'ana', password: `guess-${i}` },
        someone(),
      );
      expect(guess.status).toBe(401);
    }
    for (const gateway of [a, b]) {
      const refused = await post(
        gateway,
        '/auth/login',
        { username: 'ana', password: 'correct horse' },
        someone(),
      );
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/user name/),
      });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(900);
    }
    // Other names are not affected.
    expect(
      (await post(b, '/auth/signup', { username: 'bea', password: 'battery staple' }, someone())).status,
    ).toBe(201);
    expect(
      (await post(a, '/auth/login', { username: 'bea', password: 'battery staple' }, someone())).status,
    ).toBe(200);
  });

  it("clears a name's failures when its owner signs in", async () => {
    await post(a, '/auth/signup', { username: 'carl', password: 'carl-password' }, someone());
    const guesses = async (n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++)
        statuses.push(
          (await post(b, '/auth/login', { username: 'carl', password: 'nope-nope' }, someone())).status,
        );
      return statuses;
    };
    expect(await guesses(9)).toEqual(Array(9).fill(401));
    expect(
      (await post(a, '/auth/login', { username: 'carl', password: 'carl-password' }, someone())).status,
    ).toBe(200);
    expect(await guesses(11)).toEqual([...Array(10).fill(401), 429]);
  });

  it('counts sign-ups of a taken name as failures of that name', async () => {
    await post(a, '/auth/signup', { username: 'dora', password: 'dora-password' }, someone());
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await post(i % 2 ? a : b, '/auth/signup', { username: 'dora', password: 'another one' }, someone()))
          .status,
      );
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
  });

  it('refuses a 31st attempt from one address within a minute, across gateways; other addresses go on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const body = { username: `nobody-${i}`, password: 'whatever-password' };
      statuses.push((await post(i % 2 ? a : b, '/auth/login', body, '198.51.100.7')).status);
    }
    expect(statuses).toEqual([...Array(30).fill(401), 429]);
    const refused = await post(
      a,
      '/auth/login',
      { username: 'nobody-x', password: 'whatever' },
      '198.51.100.7',
    );
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/address/),
    });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(
      (await post(b, '/auth/login', { username: 'bea', password: 'battery staple' }, '198.51.100.8')).status,
    ).toBe(200);
  });

  it('without a trusted proxy, counts by the connection: X-Forwarded-For changes nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const body = { username: `nobody-${i}`, password: 'whatever-password' };
      statuses.push((await post(alone, '/auth/login', body, `192.0.2.${i + 1}`)).status);
    }
    expect(statuses).toEqual([...Array(30).fill(401), 429]);
  });

  it('refuses hostile names before counting them, and survives hostile forwarded addresses', async () => {
    for (const username of [
      '../../etc/passwd',
      'a'.repeat(10_000),
      "ana' OR '1'='1",
      'ana\u0000',
      'ånä',
      '',
    ]) {
      const res = await post(a, '/auth/login', { username, password: 'x' }, someone());
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('validation_failed');
    }
    for (const forwarded of [
      'not-an-address',
      `${'9'.repeat(4000)}`,
      '1.2.3.4, <script>',
      '::ffff:10.0.0.1',
    ]) {
      const res = await post(b, '/auth/login', { username: 'bea', password: 'wrong-password' }, forwarded);
      expect(res.status).toBe(401);
    }
    expect(
      (await post(a, '/auth/login', { username: 'bea', password: 'battery staple' }, someone())).status,
    ).toBe(200);
  });
});
