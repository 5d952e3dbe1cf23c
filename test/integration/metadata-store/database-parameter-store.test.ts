/**
 * Secrets in the metadata store under one shared key: any process with the key reads what another
 * stored; a process with another key, or none, is refused at open with a message naming the setting.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { DatabaseParameterStore, SecretKeyMismatch } from '../../../domain/secrets/database-parameter-store';
import { SecretNotFound } from '../../../domain/secrets/parameter-store';
import { BACKENDS, storeOpener } from './backends';

const newKey = () => randomBytes(32).toString('base64');

describe.each(BACKENDS)('secrets in the metadata store on $name', (backend) => {
  const stores = storeOpener(backend);
  afterAll(() => stores.closeAll());

  test('a second process with the same key reads, replaces and deletes what the first stored', async () => {
    const location = await backend.fresh('secrets');
    const key = newKey();
    const gateway = await DatabaseParameterStore.open(await stores.open(location), key);
    const worker = await DatabaseParameterStore.open(await stores.open(backend.other(location)), key);
    const ref = await gateway.put('projects/proj-1/db-password', 's3cr3t-Pa55');
    expect(ref).toBe('db:projects/proj-1/db-password');
    expect(await worker.get(ref)).toBe('s3cr3t-Pa55');
    await gateway.put('projects/proj-1/db-password', 'rotated');
    expect(await worker.get(ref)).toBe('rotated');
    await worker.delete(ref);
    await expect(gateway.get(ref)).rejects.toBeInstanceOf(SecretNotFound);
    await expect(gateway.get('local:projects/proj-1/db-password')).rejects.toBeInstanceOf(SecretNotFound);
  });

  test('the stored row holds no plaintext', async () => {
    const metadata = await stores.fresh('sealed');
    const store = await DatabaseParameterStore.open(metadata, newKey());
    await store.put('projects/proj-2/db-password', 'plain-text-password-42');
    const rows = await sql<Record<string, string>>`SELECT * FROM secrets`.execute(metadata.db);
    expect(JSON.stringify(rows.rows)).not.toContain('plain-text-password-42');
  });

  test('putIfAbsent: racing processes all answer the first value stored', async () => {
    const location = await backend.fresh('put-if-absent');
    const key = newKey();
    const a = await DatabaseParameterStore.open(await stores.open(location), key);
    const b = await DatabaseParameterStore.open(await stores.open(backend.other(location)), key);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).putIfAbsent('plat/id-token-es256', `key-${i}`)),
    );
    expect(new Set(answers).size).toBe(1);
    expect(await a.putIfAbsent('plat/id-token-es256', 'later')).toBe(answers[0]);
  });

  test('another key, or none, is refused at open with a message naming PLAT_SECRET_KEY', async () => {
    const location = await backend.fresh('key-check');
    await DatabaseParameterStore.open(await stores.open(location), newKey());
    const wrong = DatabaseParameterStore.open(await stores.open(backend.other(location)), newKey());
    await expect(wrong).rejects.toBeInstanceOf(SecretKeyMismatch);
    await expect(wrong).rejects.toThrow(/PLAT_SECRET_KEY does not match/);
    await expect(DatabaseParameterStore.open(await stores.open(location), undefined)).rejects.toThrow(
      /PLAT_SECRET_KEY is not set/,
    );
  });
});
