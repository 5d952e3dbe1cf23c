/**
 * The stages of hybrid search that can be switched off, to measure each alone
 * (docs/memory-search.md#fusion-stages, `bench:locomo`): `dates` (the question's relative dates
 * against the timeline: a month without a year, the week before a date, last weekend), `neighbours`
 * (neighbour turns) and `rerank` (the feature-based reranker). All are on unless
 * `PLAT_MEMORY_SEARCH_STAGES` names the ones to keep ("none" for none). Pure, for exact unit tests.
 */

export const STAGE_NAMES = ['dates', 'neighbours', 'rerank'] as const;
export type StageName = (typeof STAGE_NAMES)[number];
export type SearchStages = Record<StageName, boolean>;

export const ALL_STAGES: SearchStages = { dates: true, neighbours: true, rerank: true };

/** The stages a `PLAT_MEMORY_SEARCH_STAGES` value keeps: unset or blank all, "none" none; unknown names are ignored. */
export function searchStages(spec: string | undefined): SearchStages {
  if (spec === undefined || !spec.trim()) return ALL_STAGES;
  const named = new Set(
    spec
      .toLowerCase()
      .split(/[\s,+]+/)
      .filter(Boolean),
  );
  return { dates: named.has('dates'), neighbours: named.has('neighbours'), rerank: named.has('rerank') };
}
