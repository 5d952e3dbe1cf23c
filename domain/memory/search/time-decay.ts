/**
 * Search scoring of docs/requirements.md#search-results: similarity in [0, 1] first, then with
 * time decay final = 0.7 · similarity + 0.3 · 0.5^(age_days / 30). Pure, for exact unit tests.
 */

export const SIMILARITY_WEIGHT = 0.7;
export const FRESHNESS_WEIGHT = 0.3;
export const HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;

/** Freshness weight of a memory created at `createdAt`, seen at `now`: 1 when new, 0.5 after 30 days. */
export function decayWeight(createdAt: string, now: Date): number {
  const ageDays = Math.max(0, (now.getTime() - Date.parse(createdAt)) / DAY_MS);
  return 0.5 ** (ageDays / HALF_LIFE_DAYS);
}

/** The blended score with time decay on. */
export function decayedScore(similarity: number, createdAt: string, now: Date): number {
  return SIMILARITY_WEIGHT * similarity + FRESHNESS_WEIGHT * decayWeight(createdAt, now);
}

/** A distance engine's distance as a similarity in [0, 1] (rule 2); similarities pass through, clamped. */
export function similarityFromDistance(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}
