/**
 * The keys a process holds for the parameter store (docs/fleet.md#rotating-the-secret-key): the
 * current one, which seals every new value, and during a change-over the previous one, which only
 * opens. A value names its key (sealed-value.ts), so opening tries that key alone; a value in the
 * first format (no key id) is tried with each key held.
 */
import { decodeSecretKey, keyId, seal, unseal, type SealedValue } from './sealed-value';

/** The value cannot be opened with the keys held: sealed under another key, or altered. */
export class SealedValueRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueRefused';
  }
}

export class SecretKeys {
  /** The current key's id: what {@link seal} writes and a rotation leaves on every value. */
  readonly currentId: string;
  private readonly byId: Map<string, Buffer>;

  constructor(
    private readonly current: Buffer,
    previous: Buffer[] = [],
  ) {
    this.currentId = keyId(current);
    this.byId = new Map([current, ...previous].map((k) => [keyId(k), k]));
  }

  /** PLAT_SECRET_KEY and PLAT_SECRET_KEY_PREVIOUS (base64) as a key ring. */
  static decode(current: string, previous?: string): SecretKeys {
    return new SecretKeys(
      decodeSecretKey(current),
      previous ? [decodeSecretKey(previous, 'PLAT_SECRET_KEY_PREVIOUS')] : [],
    );
  }

  /** The ids of the keys held, current first. */
  get ids(): string[] {
    return [...this.byId.keys()];
  }

  seal(name: string, value: string): SealedValue {
    return seal(this.current, name, value);
  }

  /** Whether `sealed` is under the current key already (nothing for a rotation to do). */
  isCurrent(sealed: SealedValue): boolean {
    return sealed.key_id === this.currentId;
  }

  /** The value; {@link SealedValueRefused} names the keys involved by id, never their bytes. */
  open(name: string, sealed: SealedValue): string {
    if (sealed.key_id) {
      const key = this.byId.get(sealed.key_id);
      if (!key)
        throw new SealedValueRefused(
          `${name} is sealed under key ${sealed.key_id}, which this process does not hold (it holds ${this.ids.join(', ')}): ` +
            'set that key as PLAT_SECRET_KEY, or as PLAT_SECRET_KEY_PREVIOUS while a rotation moves the values to a new one',
        );
      return this.attempt(name, sealed, [key]);
    }
    return this.attempt(name, sealed, [...this.byId.values()]);
  }

  private attempt(name: string, sealed: SealedValue, keys: Buffer[]): string {
    for (const key of keys) {
      try {
        return unseal(key, name, sealed);
      } catch {
        // Not this key (or altered): try the next.
      }
    }
    throw new SealedValueRefused(
      `${name} does not open with the keys this process holds (${this.ids.join(', ')}): sealed under another key ` +
        '(set it as PLAT_SECRET_KEY_PREVIOUS during a rotation), or altered',
    );
  }
}
