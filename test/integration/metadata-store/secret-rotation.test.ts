/**
 * `plat secrets rotate` on both parameter stores (the data directory's files beside SQLite, the
 * `secrets` table of a shared PostgreSQL): a deployment's values, some still in the first format
 * (no key id), are sealed again under the new key; gateways read a project's password with both
 * keys set and then with the new key alone, and no longer with the old key alone; a second run
 * finds nothing to do; a rotation beside a gateway writing and deleting loses nothing it wrote and
 * brings back nothing it deleted; the output and the errors carry no key and no password.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rotateStoredSecrets } from '../../../gateway/cli/secrets-commands';
import { platformDeps } from '../../../gateway/platform/platform-deps';
import { openMetadataDb } from '../../../domain/metadata-store/metadata-db';
import type { ParameterStore } from '../../../domain/secrets/parameter-store';
import type { RotationReport } from '../../../domain/secrets/rotate-secrets';
import { keyId } from '../../../domain/secrets/sealed-value';
import { loadConfig } from '../../../shared/config';
import { newTestDataDir } from '../../harness/platform-gateway';
import { BACKENDS, dataDirOf } from './backends';

const newKey = () => randomBytes(32).toString('base64');

/** Every spelling of a key or password that output must not contain. */
function leaked(text: string, keys: string[], passwords: string[]): string[] {
  return [...keys.flatMap((k) => [k, Buffer.from(k, 'base64').toString('hex')]), ...passwords].filter((s) =>
    text.includes(s),
  );
}

describe.each(BACKENDS)('plat secrets rotate on $name', (backend) => {
  let dataDir: string;
  let metadataUrl: string | undefined;
  const oldKey = newKey();
  const newerKey = newKey();
  const keys = [oldKey, newerKey];
  const passwords = new Map<string, string>(
    [1, 2, 3, 4].map((i) => [
      `projects/proj-2026112${i}-rot${i}/db-password`,
      `src-pw-${i}-${randomBytes(6).toString('hex')}`,
    ]),
  );
  const refs = new Map<string, string>();

  /** The settings of a process on this deployment with the given keys. */
  const env = (key?: string, previous?: string): NodeJS.ProcessEnv => ({
    PLAT_DATA_DIR: dataDir,
    ...(metadataUrl ? { PLAT_METADATA_URL: metadataUrl } : {}),
    ...(key ? { PLAT_SECRET_KEY: key } : {}),
    ...(previous ? { PLAT_SECRET_KEY_PREVIOUS: previous } : {}),
  });
  /** The parameter store a gateway started with these settings uses. */
  const gatewaySecrets = async (key?: string, previous?: string): Promise<ParameterStore> =>
    (await platformDeps(dataDir, loadConfig(env(key, previous)))).secrets;
  const rotate = async (key?: string, previous?: string) => {
    const { data, text } = await rotateStoredSecrets(env(key, previous));
    expect(leaked(text + JSON.stringify(data), keys, [...passwords.values()])).toEqual([]);
    return { report: data as RotationReport & { key_id?: string }, text };
  };
  /** Rewrites a stored value as plat stored it before key ids (an existing deployment's). */
  const toFirstFormat = async (name: string) => {
    if (metadataUrl) {
      const metadata = await openMetadataDb(metadataUrl);
      await metadata.db.updateTable('secrets').set({ key_id: null }).where('name', '=', name).execute();
      await metadata.close();
      return;
    }
    const dir = path.join(dataDir, 'secrets');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const sealed = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      if (sealed.name !== name) continue;
      delete sealed.key_id;
      fs.writeFileSync(path.join(dir, file), JSON.stringify(sealed));
    }
  };

  beforeAll(async () => {
    const location = await backend.fresh('secret-rotation');
    if (backend.name === 'postgres') {
      metadataUrl = location;
      dataDir = newTestDataDir();
    } else {
      dataDir = dataDirOf(location);
    }
    // The deployment before the change-over: everything sealed under the old key, half of it in
    // the first format.
    const before = await gatewaySecrets(oldKey);
    for (const [name, password] of passwords) refs.set(name, await before.put(name, password));
    await toFirstFormat([...passwords.keys()][0]);
    await toFirstFormat([...passwords.keys()][1]);
  });

  test('a rotation without the old key is refused, naming neither key', async () => {
    const failure = await rotateStoredSecrets(env(newerKey)).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toMatch(/PLAT_SECRET_KEY|does not open with the keys/);
    expect(leaked(failure!.message, keys, [...passwords.values()])).toEqual([]);
  });

  test('re-seals every value under the new key; gateways read with both keys, then the new one alone', async () => {
    const first = await rotate(newerKey, oldKey);
    expect(first.report.total).toBeGreaterThanOrEqual(passwords.size);
    expect(first.report).toMatchObject({ resealed: first.report.total, already_current: 0, gone: 0 });
    expect(first.report.key_id).toBe(keyId(Buffer.from(newerKey, 'base64')));
    expect(first.text).toMatch(
      new RegExp(`${first.report.total} stored, ${first.report.total} sealed again`),
    );
    expect(first.text).toMatch(/remove PLAT_SECRET_KEY_PREVIOUS/);

    const both = await gatewaySecrets(newerKey, oldKey);
    const newOnly = await gatewaySecrets(newerKey);
    for (const [name, password] of passwords) {
      expect(await both.get(refs.get(name)!)).toBe(password);
      expect(await newOnly.get(refs.get(name)!)).toBe(password);
    }
    expect((await newOnly.list()).every((p) => p.key_id === first.report.key_id)).toBe(true);

    // Idempotent: a second run (or one resumed after an interruption) finds everything done.
    const again = await rotate(newerKey);
    expect(again.report).toMatchObject({
      total: first.report.total,
      resealed: 0,
      already_current: first.report.total,
    });

    // The old key alone opens nothing any more, and says so without showing a key.
    const failure = await gatewaySecrets(oldKey)
      .then((s) => s.get(refs.get([...passwords.keys()][0])!))
      .then(
        () => undefined,
        (err: Error) => err,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(leaked(failure!.message, keys, [...passwords.values()])).toEqual([]);
  });

  test('beside a gateway writing and deleting, loses no value written and revives none deleted', async () => {
    // Back to a change-over: the values under the newer key, which is now being replaced.
    const newest = newKey();
    keys.push(newest);
    const gateway = await gatewaySecrets(newest, newerKey);
    const names = [...passwords.keys()];
    const written = new Map<string, string>();
    const [, report] = await Promise.all([
      (async () => {
        for (const [i, name] of names.entries()) {
          if (i % 2) {
            await gateway.delete(refs.get(name)!);
          } else {
            const value = `replaced-${i}-${randomBytes(6).toString('hex')}`;
            passwords.set(`${name}#replaced`, value); // checked for leaks too
            written.set(name, value);
            await gateway.put(name, value);
          }
        }
      })(),
      rotate(newest, newerKey).then((r) => r.report),
    ]);
    expect(report.resealed + report.already_current + report.gone).toBe(report.total);
    const after = await gatewaySecrets(newest);
    for (const [i, name] of names.entries()) {
      if (i % 2) await expect(after.get(refs.get(name)!)).rejects.toThrow(/no secret stored/);
      else expect(await after.get(refs.get(name)!)).toBe(written.get(name));
    }
    expect((await after.list()).every((p) => p.key_id === keyId(Buffer.from(newest, 'base64')))).toBe(true);
  });
});
