import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError, loadConfig, settings } from '../../shared/config';
import { repoRoot } from '../../shared/paths';
import { startHelp } from '../../scripts/lib/start-options';
import { thrownBy } from '../harness/thrown';

describe('configuration', () => {
  it('has the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_DEV_PORT: 7233,
      TEMPORAL_UI_PORT: 8233,
      PLAT_GATEWAY_PORT: 8080,
      PLAT_MEMORY_PORT: 8230,
      PLAT_MEMORY_HOST: '127.0.0.1',
      PLAT_MEMORY_API_KEYS: [],
      PLAT_WITH_OPENSEARCH: false,
      LOG_LEVEL: 'info',
    });
  });

  it('parses typed values', () => {
    const config = loadConfig({
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      PLAT_GATEWAY_PORT: '9090',
      PLAT_MEMORY_API_KEYS: ' k1, k2 ,',
      PLAT_WITH_OPENSEARCH: 'true',
    });
    expect(config.TEMPORAL_ADDRESS).toBe('temporal.internal:7233');
    expect(config.PLAT_GATEWAY_PORT).toBe(9090);
    expect(config.PLAT_MEMORY_API_KEYS).toEqual(['k1', 'k2']);
    expect(config.PLAT_WITH_OPENSEARCH).toBe(true);
  });

  it('names every bad variable and the form it expects', () => {
    const error = thrownBy(() =>
      loadConfig({
        PLAT_GATEWAY_PORT: '80a',
        TEMPORAL_ADDRESS: 'no-port',
        LOG_LEVEL: 'loud',
        OPENSEARCH_URL: 'ftp://x',
      }),
    );
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PLAT_GATEWAY_PORT="80a": expected a TCP port, 1-65535');
    expect(message).toContain('TEMPORAL_ADDRESS="no-port": expected host:port');
    expect(message).toContain('LOG_LEVEL="loud": expected one of trace, debug');
    expect(message).toContain('OPENSEARCH_URL="ftp://x": expected an http(s) URL');
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('never repeats a secret or a URL password in its errors', () => {
    let message = '';
    try {
      loadConfig({
        PLAT_METADATA_URL: 'postgresql+psycopg://plat:hunter2-topsecret@db:5432/plat',
        PLAT_SECRET_KEY: 'not-a-32-byte-key-but-still-secret',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PLAT_METADATA_URL="postgresql\+psycopg:\/\/plat:\*\*\*@db:5432\/plat"/);
    expect(message).toMatch(/PLAT_SECRET_KEY="\(hidden, 34 characters\)"/);
    expect(message).not.toMatch(/hunter2|still-secret/);
  });

  it('needs PLAT_SECRET_KEY with a shared metadata store', () => {
    expect(() => loadConfig({ PLAT_METADATA_URL: 'postgres://plat:pw@db/plat' })).toThrow(
      /PLAT_SECRET_KEY="": expected a key shared by every host/,
    );
  });

  it('hides a bad PLAT_SECRET_KEY_PREVIOUS and needs the new key beside it', () => {
    let message = '';
    try {
      loadConfig({ PLAT_SECRET_KEY_PREVIOUS: 'old-key-that-is-not-32-bytes' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PLAT_SECRET_KEY_PREVIOUS="\(hidden, 28 characters\)"/);
    expect(message).not.toMatch(/old-key-that/);
    const previous = Buffer.alloc(32, 9).toString('base64');
    expect(() => loadConfig({ PLAT_SECRET_KEY_PREVIOUS: previous })).toThrow(
      /PLAT_SECRET_KEY="": expected the new key when PLAT_SECRET_KEY_PREVIOUS is set/,
    );
    const both = loadConfig({
      PLAT_SECRET_KEY: Buffer.alloc(32, 8).toString('base64'),
      PLAT_SECRET_KEY_PREVIOUS: previous,
    });
    expect(both.PLAT_SECRET_KEY_PREVIOUS).toBe(previous);
  });

  it('rejects out-of-range ports', () => {
    expect(() => loadConfig({ PLAT_MEMORY_PORT: '70000' })).toThrow(/PLAT_MEMORY_PORT="70000"/);
    expect(() => loadConfig({ PLAT_MEMORY_PORT: '0' })).toThrow(/PLAT_MEMORY_PORT/);
  });

  it('.env.example and --help document every variable', () => {
    const example = fs.readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
    const help = startHelp();
    for (const name of Object.keys(settings)) {
      expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
      expect(help).toContain(name);
    }
  });
});
