/**
 * The settings that guard sign-in: an external OIDC issuer only with an audience, the well-known
 * try-out secrets only with PLAT_DEMO_SECRETS=true, and trusted proxies only by name or hop count.
 */
import * as path from 'node:path';
import * as os from 'node:os';
import * as fs from 'node:fs';
import { IdTokens, keyDirectory } from '../../gateway/auth/id-tokens';
import { ConfigError, loadConfig } from '../../shared/config';
import {
  DEMO_ALERTS_WEBHOOK_TOKEN,
  DEMO_DB_PASSWORD,
  DEMO_MEMORY_API_KEY,
  DEMO_SECRET_KEY,
} from '../../shared/well-known-secrets';
import { thrownBy } from '../harness/thrown';

/** The problems loadConfig reports for `env`, by variable ({} when it accepts it). */
function problems(env: NodeJS.ProcessEnv): Record<string, string> {
  try {
    loadConfig(env);
    return {};
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return Object.fromEntries(err.problems.map((p) => [p.variable, `${p.expected} (got ${p.got})`]));
  }
}

describe('an external OIDC issuer', () => {
  it('is refused without an audience, with a message that says why', () => {
    const found = problems({ PLAT_OIDC_ISSUER: 'https://issuer.example/pool' });
    expect(Object.keys(found)).toEqual(['PLAT_OIDC_AUDIENCE']);
    expect(found.PLAT_OIDC_AUDIENCE).toMatch(/client id.*PLAT_OIDC_ISSUER is set.*other clients/);
  });

  it('is accepted with one, and no audience is needed without an issuer', () => {
    expect(problems({ PLAT_OIDC_ISSUER: 'https://issuer.example/pool', PLAT_OIDC_AUDIENCE: 'plat' })).toEqual(
      {},
    );
    expect(problems({})).toEqual({});
  });

  it('cannot be opened without an audience by code that skips the configuration', async () => {
    const keys = keyDirectory(fs.mkdtempSync(path.join(os.tmpdir(), 'keys-')));
    await expect(IdTokens.open(keys, 3600, { issuer: 'https://issuer.example/pool' })).rejects.toThrow(
      /needs an audience \(PLAT_OIDC_AUDIENCE\)/,
    );
  });
});

describe('the well-known try-out secrets', () => {
  const wellKnown = {
    PLAT_SECRET_KEY: DEMO_SECRET_KEY,
    PLAT_METADATA_URL: `postgres://plat:${DEMO_DB_PASSWORD}@db:5432/plat`,
    PLAT_MEMORY_API_KEYS: `one-of-ours, ${DEMO_MEMORY_API_KEY}`,
    PLAT_MEMORY_API_KEY: DEMO_MEMORY_API_KEY,
    PLAT_ALERTS_WEBHOOK_TOKEN: DEMO_ALERTS_WEBHOOK_TOKEN,
  };

  it('are refused, each naming its variable and never repeating the value', () => {
    const error = thrownBy(() => loadConfig(wellKnown));
    expect(error).toBeInstanceOf(ConfigError);
    const refused = (error as ConfigError).problems;
    expect(refused.map((p) => p.variable).sort()).toEqual(Object.keys(wellKnown).sort());
    for (const p of refused)
      expect(p.expected).toMatch(/not the well-known try-out value.*PLAT_DEMO_SECRETS=true/);
    const message = (error as Error).message;
    expect(message).not.toContain(DEMO_SECRET_KEY);
    expect(message).not.toContain(DEMO_ALERTS_WEBHOOK_TOKEN);
    expect(message).not.toContain(`plat:${DEMO_DB_PASSWORD}@`);
  });

  it('are accepted with PLAT_DEMO_SECRETS=true', () => {
    expect(problems({ ...wellKnown, PLAT_DEMO_SECRETS: 'true' })).toEqual({});
  });

  it('leave secrets of our own, look-alikes and the embedded defaults alone', () => {
    expect(
      problems({
        PLAT_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
        PLAT_METADATA_URL: 'postgres://plat:plat-but-longer@db:5432/plat',
        PLAT_MEMORY_API_KEYS: 'change-me-not,another',
        PLAT_ALERTS_WEBHOOK_TOKEN: `${DEMO_ALERTS_WEBHOOK_TOKEN}-2`,
      }),
    ).toEqual({});
    // `npm start` with nothing set: a key file in the data directory, no keys, no webhook token.
    expect(problems({})).toEqual({});
  });

  it('are found however a URL spells its password (percent-encoding, postgresql://)', () => {
    const key = Buffer.alloc(32, 2).toString('base64');
    expect(
      Object.keys(problems({ PLAT_METADATA_URL: 'postgresql://plat:%70lat@db/plat', PLAT_SECRET_KEY: key })),
    ).toEqual(['PLAT_METADATA_URL']);
  });
});

describe('PLAT_TRUST_PROXY', () => {
  it('takes a hop count, or proxies by address, CIDR or named range', () => {
    expect(loadConfig({ PLAT_TRUST_PROXY: '1' }).PLAT_TRUST_PROXY).toBe(1);
    expect(
      loadConfig({ PLAT_TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.0.2.7' }).PLAT_TRUST_PROXY,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    expect(loadConfig({}).PLAT_TRUST_PROXY).toBeUndefined();
  });

  it('refuses trusting everyone and anything that is not a proxy', () => {
    for (const hostile of [
      'true',
      '0',
      '11',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.1/8/8',
      'proxy.example',
      '*',
      ' , ',
      '1.2.3.4; rm -rf /',
      `${'9'.repeat(400)}.1`,
    ]) {
      expect(Object.keys(problems({ PLAT_TRUST_PROXY: hostile }))).toEqual(['PLAT_TRUST_PROXY']);
    }
  });
});
