/**
 * The embedded parameter store: one AES-256-GCM encrypted file per parameter under
 * `<data>/secrets/` (sealed-value.ts). The key comes from PLAT_SECRET_KEY (base64, 32 bytes) or a
 * key file created once with mode 0600; PLAT_SECRET_KEY_PREVIOUS opens values sealed under the key
 * being replaced (secret-keys.ts). One host only: a shared metadata store keeps parameters in its
 * database instead (database-parameter-store.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withFileLock } from './file-lock';
import {
  SecretNotFound,
  type ParameterStore,
  type ResealOutcome,
  type SecretRef,
  type StoredParameter,
} from './parameter-store';
import { SecretKeys } from './secret-keys';
import { decodeSecretKey, type SealedValue } from './sealed-value';

const PREFIX = 'local:';

type SealedParameter = SealedValue & { name: string };

export class LocalParameterStore implements ParameterStore {
  private readonly keys: SecretKeys;

  constructor(
    private readonly dir: string,
    key?: string,
    previousKey?: string,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const current = key ? decodeSecretKey(key) : loadOrCreateKeyFile(path.join(dir, 'master.key'));
    this.keys = new SecretKeys(
      current,
      previousKey ? [decodeSecretKey(previousKey, 'PLAT_SECRET_KEY_PREVIOUS')] : [],
    );
  }

  async put(name: string, value: string): Promise<SecretRef> {
    const file = this.fileFor(name);
    withFileLock(file, () => writeAtomically(file, this.sealed(name, value)));
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
    const sealed = readSealed(this.fileFor(name));
    if (!sealed) throw new SecretNotFound(ref);
    return this.keys.open(name, sealed);
  }

  async delete(ref: SecretRef): Promise<void> {
    const file = this.fileFor(nameOf(ref));
    withFileLock(file, () => fs.rmSync(file, { force: true }));
  }

  async list(): Promise<StoredParameter[]> {
    const out: StoredParameter[] = [];
    for (const entry of fs.readdirSync(this.dir)) {
      if (!/^[0-9a-f]{64}\.json$/.test(entry)) continue;
      const file = path.join(this.dir, entry);
      const sealed = readSealed(file);
      if (!sealed) continue; // deleted since the listing
      out.push({
        name: sealed.name,
        ref: PREFIX + sealed.name,
        updated_at:
          fs.statSync(file, { throwIfNoEntry: false })?.mtime.toISOString() ?? new Date().toISOString(),
        ...(sealed.key_id ? { key_id: sealed.key_id } : {}),
      });
    }
    return out;
  }

  async reseal(name: string): Promise<ResealOutcome> {
    const file = this.fileFor(name);
    return withFileLock(file, () => {
      const sealed = readSealed(file);
      if (!sealed) return 'gone';
      if (this.keys.isCurrent(sealed)) return 'current';
      writeAtomically(file, this.sealed(name, this.keys.open(name, sealed)));
      return 'resealed';
    });
  }

  private sealed(name: string, value: string): SealedParameter {
    return { name, ...this.keys.seal(name, value) };
  }

  private fileFor(name: string): string {
    return path.join(this.dir, `${createHash('sha256').update(name).digest('hex')}.json`);
  }
}

function nameOf(ref: SecretRef): string {
  if (!ref.startsWith(PREFIX)) throw new SecretNotFound(ref);
  return ref.slice(PREFIX.length);
}

/** The parameter in `file`, or undefined when there is none. */
function readSealed(file: string): SealedParameter | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as SealedParameter;
}

function writeAtomically(file: string, sealed: SealedParameter): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(sealed), { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
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
