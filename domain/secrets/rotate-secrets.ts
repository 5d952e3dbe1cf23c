/**
 * `plat secrets rotate` (docs/fleet.md#rotating-the-secret-key): seals every stored parameter again
 * under the current key. Idempotent and resumable (a value under the current key already is left
 * alone, so a second run, or one after an interruption, only does what is left) and safe beside
 * running processes (each value is replaced only if it is still the version read: parameter-store.ts).
 */
import type { ParameterStore, ResealOutcome } from './parameter-store';

/** Counts only: a rotation's report names no value and no key. */
export interface RotationReport {
  /** Parameters found at the start. */
  total: number;
  resealed: number;
  /** Under the current key already (sealed by a process holding it, or by an earlier run). */
  already_current: number;
  /** Deleted by another process while the rotation ran. */
  gone: number;
}

export async function rotateSecrets(store: ParameterStore): Promise<RotationReport> {
  const parameters = await store.list();
  const counts: Record<ResealOutcome, number> = { resealed: 0, current: 0, gone: 0 };
  for (const { name } of parameters) counts[await store.reseal(name)]++;
  return {
    total: parameters.length,
    resealed: counts.resealed,
    already_current: counts.current,
    gone: counts.gone,
  };
}
