/**
 * The parameter store of a fleet (docs/fleet.md#secrets): parameters sealed with AES-256-GCM under
 * PLAT_SECRET_KEY in the shared metadata store's `secrets` table, so a worker on any host reads the
 * password the gateway stored. Every process must hold the key the values are sealed under: the
 * store keeps a check value, and a process that cannot open it is refused at open. During a key
 * change-over PLAT_SECRET_KEY_PREVIOUS opens what the old key sealed (docs/fleet.md#rotating-the-secret-key).
 */
import type { MetadataDb } from '../metadata-store/metadata-db';
import {
  SecretNotFound,
  type ParameterStore,
  type ResealOutcome,
  type SecretRef,
  type StoredParameter,
} from './parameter-store';
import { SecretKeys } from './secret-keys';
import type { SealedValue } from './sealed-value';

const PREFIX = 'db:';
const KEY_CHECK = 'plat/secret-key-check';
const KEY_CHECK_VALUE = 'plat: this is the key the secrets of this store are sealed with';
/** Rewrites a reseal retries when other processes keep replacing the value under it. */
const RESEAL_ATTEMPTS = 5;

/** The key is missing, or is not the one the store's secrets were sealed with. */
export class SecretKeyMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyMismatch';
  }
}

type SealedRow = SealedValue & { key_id?: string };

export class DatabaseParameterStore implements ParameterStore {
  private constructor(
    private readonly metadata: MetadataDb,
    private readonly keys: SecretKeys,
  ) {}

  /** Opens the store, refusing a missing key or one that does not match the store's. */
  static async open(
    metadata: MetadataDb,
    secretKey: string | undefined,
    previousKey?: string,
  ): Promise<DatabaseParameterStore> {
    if (!secretKey) {
      throw new SecretKeyMismatch(
        `PLAT_SECRET_KEY is not set: with a shared metadata store (${metadata.location}) every process ` +
          'seals and opens secrets with one key; set the same PLAT_SECRET_KEY on every host (openssl rand -base64 32)',
      );
    }
    const store = new DatabaseParameterStore(metadata, SecretKeys.decode(secretKey, previousKey));
    if ((await store.putIfAbsent(KEY_CHECK, KEY_CHECK_VALUE)) !== KEY_CHECK_VALUE)
      throw await store.mismatch();
    return store;
  }

  async put(name: string, value: string): Promise<SecretRef> {
    const row = { name, ...this.sealed(name, value), updated_at: new Date().toISOString() };
    await this.metadata.db
      .insertInto('secrets')
      .values(row)
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          iv: row.iv,
          tag: row.tag,
          ciphertext: row.ciphertext,
          key_id: row.key_id,
          updated_at: row.updated_at,
        }),
      )
      .execute();
    return PREFIX + name;
  }

  async putIfAbsent(name: string, value: string): Promise<string> {
    await this.metadata.db
      .insertInto('secrets')
      .values({ name, ...this.sealed(name, value), updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return this.read(name, PREFIX + name);
  }

  async get(ref: SecretRef): Promise<string> {
    if (!ref.startsWith(PREFIX)) throw new SecretNotFound(ref);
    return this.read(ref.slice(PREFIX.length), ref);
  }

  async delete(ref: SecretRef): Promise<void> {
    if (!ref.startsWith(PREFIX)) return;
    await this.metadata.db.deleteFrom('secrets').where('name', '=', ref.slice(PREFIX.length)).execute();
  }

  async list(): Promise<StoredParameter[]> {
    const rows = await this.metadata.db
      .selectFrom('secrets')
      .select(['name', 'updated_at', 'key_id'])
      .orderBy('name')
      .execute();
    return rows.map((r) => ({
      name: r.name,
      ref: PREFIX + r.name,
      updated_at: r.updated_at,
      ...(r.key_id ? { key_id: r.key_id } : {}),
    }));
  }

  /**
   * Compare-and-set on the version read (its random IV): a value another process wrote or deleted
   * meanwhile is never overwritten with the old one sealed again.
   */
  async reseal(name: string): Promise<ResealOutcome> {
    for (let attempt = 0; attempt < RESEAL_ATTEMPTS; attempt++) {
      const row = await this.row(name);
      if (!row) return 'gone';
      if (this.keys.isCurrent(row)) return 'current';
      const fresh = this.sealed(name, this.keys.open(name, row));
      const { numUpdatedRows } = await this.metadata.db
        .updateTable('secrets')
        .set({ ...fresh, updated_at: new Date().toISOString() })
        .where('name', '=', name)
        .where('iv', '=', row.iv)
        .where('tag', '=', row.tag)
        .executeTakeFirst();
      if (Number(numUpdatedRows) === 1) return 'resealed';
    }
    throw new Error(`${name} kept changing while it was sealed again: run the rotation again`);
  }

  private sealed(name: string, value: string): SealedValue & { key_id: string } {
    return { ...this.keys.seal(name, value), key_id: this.keys.currentId };
  }

  private async row(name: string): Promise<SealedRow | undefined> {
    const row = await this.metadata.db
      .selectFrom('secrets')
      .select(['iv', 'tag', 'ciphertext', 'key_id'])
      .where('name', '=', name)
      .executeTakeFirst();
    return (
      row && {
        iv: row.iv,
        tag: row.tag,
        ciphertext: row.ciphertext,
        ...(row.key_id ? { key_id: row.key_id } : {}),
      }
    );
  }

  private async read(name: string, ref: SecretRef): Promise<string> {
    const row = await this.row(name);
    if (!row) throw new SecretNotFound(ref);
    try {
      return this.keys.open(name, row);
    } catch {
      throw await this.mismatch();
    }
  }

  private async mismatch(): Promise<SecretKeyMismatch> {
    const check = await this.row(KEY_CHECK);
    const sealedWith = check?.key_id ? `key ${check.key_id}; ` : '';
    return new SecretKeyMismatch(
      `PLAT_SECRET_KEY does not match the key the secrets in ${this.metadata.location} were sealed with ` +
        `(${sealedWith}this process holds ${this.keys.ids.join(', ')}): set PLAT_SECRET_KEY to the key the ` +
        'other processes of this fleet use, or during a key change-over the old key as PLAT_SECRET_KEY_PREVIOUS',
    );
  }
}
