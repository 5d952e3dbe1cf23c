/**
 * The parameter store of a fleet (docs/fleet.md#secrets): parameters sealed with AES-256-GCM under
 * PLAT_SECRET_KEY in the shared metadata store's `secrets` table, so a worker on any host reads the
 * password the gateway stored. Every process must hold the same key: the store keeps a check value
 * sealed under the key of the first process, and opening it with another key is refused.
 */
import type { MetadataDb } from '../metadata-store/metadata-db';
import { SecretNotFound, type ParameterStore, type SecretRef } from './parameter-store';
import { decodeSecretKey, seal, unseal } from './sealed-value';

const PREFIX = 'db:';
const KEY_CHECK = 'plat/secret-key-check';
const KEY_CHECK_VALUE = 'plat: this is the key the secrets of this store are sealed with';

/** The key is missing, or is not the one the store's secrets were sealed with. */
export class SecretKeyMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyMismatch';
  }
}

export class DatabaseParameterStore implements ParameterStore {
  private constructor(
    private readonly metadata: MetadataDb,
    private readonly key: Buffer,
  ) {}

  /** Opens the store, refusing a missing key or one that does not match the store's. */
  static async open(metadata: MetadataDb, secretKey: string | undefined): Promise<DatabaseParameterStore> {
    if (!secretKey) {
      throw new SecretKeyMismatch(
        `PLAT_SECRET_KEY is not set: with a shared metadata store (${metadata.location}) every process ` +
          'seals and opens secrets with one key; set the same PLAT_SECRET_KEY on every host (openssl rand -base64 32)',
      );
    }
    const store = new DatabaseParameterStore(metadata, decodeSecretKey(secretKey));
    if ((await store.putIfAbsent(KEY_CHECK, KEY_CHECK_VALUE)) !== KEY_CHECK_VALUE) throw store.mismatch();
    return store;
  }

  async put(name: string, value: string): Promise<SecretRef> {
    const row = { name, ...seal(this.key, name, value), updated_at: new Date().toISOString() };
    await this.metadata.db
      .insertInto('secrets')
      .values(row)
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          iv: row.iv,
          tag: row.tag,
          ciphertext: row.ciphertext,
          updated_at: row.updated_at,
        }),
      )
      .execute();
    return PREFIX + name;
  }

  async putIfAbsent(name: string, value: string): Promise<string> {
    await this.metadata.db
      .insertInto('secrets')
      .values({ name, ...seal(this.key, name, value), updated_at: new Date().toISOString() })
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

  private async read(name: string, ref: SecretRef): Promise<string> {
    const row = await this.metadata.db
      .selectFrom('secrets')
      .select(['iv', 'tag', 'ciphertext'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) throw new SecretNotFound(ref);
    try {
      return unseal(this.key, name, row);
    } catch {
      throw this.mismatch();
    }
  }

  private mismatch(): SecretKeyMismatch {
    return new SecretKeyMismatch(
      `PLAT_SECRET_KEY does not match the key the secrets in ${this.metadata.location} were sealed with: ` +
        'set PLAT_SECRET_KEY to the key the other processes of this fleet use',
    );
  }
}
