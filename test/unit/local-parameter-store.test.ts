import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalParameterStore } from '../../domain/secrets/local-parameter-store';
import { SecretNotFound } from '../../domain/secrets/parameter-store';

describe('local AES-256-GCM parameter store', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-secrets-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('round-trips a value and never writes it in clear', async () => {
    const store = new LocalParameterStore(dir);
    const ref = await store.put('projects/p1/db-password', 'S3cret-pässword!');
    expect(ref).toBe('local:projects/p1/db-password');
    expect(await store.get(ref)).toBe('S3cret-pässword!');
    for (const file of fs.readdirSync(dir)) {
      expect(fs.readFileSync(path.join(dir, file), 'utf8')).not.toContain('S3cret');
    }
    // A second store over the same directory (another process) reads it with the key file.
    expect(await new LocalParameterStore(dir).get(ref)).toBe('S3cret-pässword!');
    expect(fs.statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
  });

  it('refuses a tampered file and a wrong key', async () => {
    const store = new LocalParameterStore(dir);
    const ref = await store.put('p2', 'value');
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'))!;
    const sealed = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    sealed.ciphertext = Buffer.from('xxxxx').toString('base64');
    fs.writeFileSync(path.join(dir, file), JSON.stringify(sealed));
    await expect(store.get(ref)).rejects.toThrow();
    const other = new LocalParameterStore(dir, Buffer.alloc(32, 7).toString('base64'));
    await store.put('p3', 'value');
    await expect(other.get('local:p3')).rejects.toThrow();
  });

  it('answers SecretNotFound for unknown and deleted references', async () => {
    const store = new LocalParameterStore(dir);
    await expect(store.get('local:nope')).rejects.toBeInstanceOf(SecretNotFound);
    await expect(store.get('ssm:/elsewhere')).rejects.toBeInstanceOf(SecretNotFound);
    const ref = await store.put('gone', 'v');
    await store.delete(ref);
    await expect(store.get(ref)).rejects.toBeInstanceOf(SecretNotFound);
  });

  it('rejects a key of the wrong size with a usable message', () => {
    expect(() => new LocalParameterStore(dir, 'c2hvcnQ=')).toThrow(/32 bytes, base64/);
  });
});
