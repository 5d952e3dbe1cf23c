/**
 * The embedded parameter store: one AES-256-GCM encrypted file per parameter under
 * `<data>/secrets/`, with the parameter name as associated data (a file copied to another name
 * does not decrypt). The key comes from PLAT_SECRET_KEY (base64, 32 bytes) or a key file created
 * once with mode 0600.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SecretNotFound, type ParameterStore, type SecretRef } from './parameter-store';

const PREFIX = 'local:';

interface SealedParameter {
  name: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

export class LocalParameterStore implements ParameterStore {
  private readonly key: Buffer;

  constructor(
    private readonly dir: string,
    key?: string,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.key = key ? decodeKey(key) : loadOrCreateKeyFile(path.join(dir, 'master.key'));
  }

  async put(name: string, value: string): Promise<SecretRef> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(name));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const sealed: SealedParameter = {
      name,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
    const file = this.fileFor(name);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(sealed), { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
    return PREFIX + name;
  }

  async get(ref: SecretRef): Promise<string> {
    const name = nameOf(ref);
    let sealed: SealedParameter;
    try {
      sealed = JSON.parse(fs.readFileSync(this.fileFor(name), 'utf8')) as SealedParameter;
    } catch {
      throw new SecretNotFound(ref);
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(name));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }

  async delete(ref: SecretRef): Promise<void> {
    fs.rmSync(this.fileFor(nameOf(ref)), { force: true });
  }

  private fileFor(name: string): string {
    return path.join(this.dir, `${createHash('sha256').update(name).digest('hex')}.json`);
  }
}

function nameOf(ref: SecretRef): string {
  if (!ref.startsWith(PREFIX)) throw new SecretNotFound(ref);
  return ref.slice(PREFIX.length);
}

function decodeKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32)
    throw new Error('PLAT_SECRET_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
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
  return decodeKey(fs.readFileSync(file, 'utf8').trim());
}
