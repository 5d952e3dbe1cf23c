/**
 * Where secrets (source database passwords) live. Workflows carry only a {@link SecretRef}; the
 * value is read by the activity that needs it and never returned, logged or put in an event.
 */

/** An opaque reference such as `local:projects/proj-20261122-ab12cd/db-password`. */
export type SecretRef = string;

export interface ParameterStore {
  /** Stores `value` under `name` (overwriting) and returns its reference. */
  put(name: string, value: string): Promise<SecretRef>;
  /**
   * Stores `value` under `name` unless a value is stored there already; answers the stored value
   * (the first writer's, when several processes race).
   */
  putIfAbsent(name: string, value: string): Promise<string>;
  /** The value behind a reference; throws {@link SecretNotFound} if there is none. */
  get(ref: SecretRef): Promise<string>;
  /** Removes the value, if any: deleting what is gone already is not an error. */
  delete(ref: SecretRef): Promise<void>;
  /** Every stored parameter's name and reference, never its value (rotation and retention). */
  list(): Promise<StoredParameter[]>;
  /**
   * Seals the stored value of `name` again under the current key. Only the version read is replaced:
   * a value written or deleted meanwhile by another process is left as that process left it.
   */
  reseal(name: string): Promise<ResealOutcome>;
}

/** A stored parameter as listings show it: no value, sealed or not. */
export interface StoredParameter {
  name: string;
  ref: SecretRef;
  /** When it was last written (ISO 8601). */
  updated_at: string;
  /** The id of the key it is sealed under (none: the first format, before key ids). */
  key_id?: string;
}

/**
 * What a reseal did: `resealed`, `current` (under the current key already, or written meanwhile by
 * a process sealing under it), or `gone` (deleted meanwhile).
 */
export type ResealOutcome = 'resealed' | 'current' | 'gone';

export class SecretNotFound extends Error {
  constructor(ref: SecretRef) {
    super(`no secret stored for ${ref}`);
    this.name = 'SecretNotFound';
  }
}
