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
  delete(ref: SecretRef): Promise<void>;
}

export class SecretNotFound extends Error {
  constructor(ref: SecretRef) {
    super(`no secret stored for ${ref}`);
    this.name = 'SecretNotFound';
  }
}
