/**
 * The embedded parameter store: one AES-256-GCM encrypted file per parameter under
 * `<data>/secrets/` (sealed-value.ts). The key comes from PLAT_SECRET_KEY (base64, 32 bytes) or a
 * key file created once with mode 0600. One host only: a shared metadata store keeps parameters in
 * its database instead (database-parameter-store.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SecretNotFound, type ParameterStore, type SecretRef } from './parameter-store';
import { decodeSecretKey, seal, unseal, type SealedValue } from './sealed-value';

const PREFIX = 'local:';

type SealedParameter = SealedValue & { name: string };

export class LocalParameterStore implements ParameterStore {
  private readonly key: Buffer;

  constructor(
    private readonly dir: string,
    key?: string,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.key = key ? decodeSecretKey(key) : loadOrCreateKeyFile(path.join(dir, 'master.key'));
  }

  async put(name: string, value: string): Promise<SecretRef> {
    const file = this.fileFor(name);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(this.sealed(name, value)), { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
    return PREFIX + name;
  }

  async putIfAbsent(name: string, value: string): Promise<string> {
    try {
      fs.writeFileSync(this.fileFor(name), JSON.stringify(this.sealed(name, value)), {
        mode: 0o600,
        flag: 'wx',
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return this.get(PREFIX + name);
  }

  async get(ref: SecretRef): Promise<string> {
    const name = nameOf(ref);
    let sealed: SealedParameter;
    try {
      sealed = JSON.parse(fs.readFileSync(this.fileFor(name), 'utf8')) as SealedParameter;
    } catch {
      throw new SecretNotFound(ref);
    }
    return unseal(this.key, name, sealed);
  }

  async delete(ref: SecretRef): Promise<void> {
    fs.rmSync(this.fileFor(nameOf(ref)), { force: true });
  }

  private sealed(name: string, value: string): SealedParameter {
    return { name, ...seal(this.key, name, value) };
  }

  private fileFor(name: string): string {
    return path.join(this.dir, `${createHash('sha256').update(name).digest('hex')}.json`);
  }
}

function nameOf(ref: SecretRef): string {
  if (!ref.startsWith(PREFIX)) throw new SecretNotFound(ref);
  return ref.slice(PREFIX.length);
}

function loadOrCreateKeyFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return decodeSecretKey(fs.readFileSync(file, 'utf8').trim());
}
