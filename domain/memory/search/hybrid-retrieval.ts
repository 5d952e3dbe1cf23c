/**
 * Retrieval by search mode (docs/memory-search.md): the candidate lists of each signal from the
 * store, fused into one relevance in [0, 1] per memory, with the signals that found it.
 *
 * - `semantic`: cosine similarity of the query embedding, nothing else (the relevance is the
 *   similarity);
 * - `lexical`: BM25 over the memory's terms, normalized (search/lexical-index.ts);
 * - `hybrid`: semantic and lexical, plus an entity list (BM25 over only the things the question
 *   names) when it names any, and a time list (semantic within the range) when it names a time,
 *   fused with weights (search/rank-fusion.ts); then the memories created next to the best
 *   candidates get a share of their relevance (search/neighbour-turns.ts), and a feature-based
 *   reranker scores the candidates (search/rerank-stage.ts), each stage switchable (search/search-stages.ts).
 *
 * In every mode the relevance is then calibrated (search/calibration.ts, with the mode's fitted
 * constants of search/calibration-fit.ts); candidates stay in fusion's order, best first.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import type { SearchMode } from '../../../shared/memory-requests';
import type { MemoryFilter, MemoryStore, TextHit, VectorHit } from '../store/memory-store';
import { calibratedRelevance } from './calibration';
import { CALIBRATIONS } from './calibration-fit';
import { fuseRankings, type RankedHit } from './rank-fusion';
import { NEIGHBOUR_TURNS, neighbourShares, type NeighbourShare } from './neighbour-turns';
import { relevanceFeatures, type RelevanceFeatures } from './relevance-features';
import type { RerankFeatures } from './rerank-features';
import { rerankStage, type Fused, type FusedList } from './rerank-stage';
import { ALL_STAGES, type SearchStages } from './search-stages';
import { attributeCueTerms } from './attribute-cues';
import { entityTerms, queryTerms, termWords } from './text-terms';
import { questionWithoutWordsOfTime } from './question-time';
import { timeRangeOf } from './time-expressions';
import type { MatchSignals, QueryPlan } from './query-plan';

export type { MatchSignals, QueryPlan } from './query-plan';

/** A memory with its calibrated relevance in [0, 1]. */
export interface Candidate {
  record: MemoryRecord;
  /** The calibrated relevance (search/calibration.ts): what `min_score` and time decay apply to. */
  relevance: number;
  signals: MatchSignals;
  /** What calibration read (the fused relevance among them), for benchmarks and fitting. */
  features: RelevanceFeatures;
  /** What the reranker read (hybrid only), for benchmarks and fitting. */
  rerank?: RerankFeatures;
}

/** Fusion weights of the hybrid mode, tuned on LoCoMo's first conversations (see bench/locomo.ts). */
export const HYBRID_WEIGHTS = { semantic: 1, lexical: 1, entity: 0.25, time: 0.5 };

export function queryPlan(
  mode: SearchMode,
  question: string,
  vector: Promise<Float32Array> | undefined,
  now: Date,
  stages: SearchStages = ALL_STAGES,
): QueryPlan {
  const hybrid = mode === 'hybrid';
  return {
    mode,
    vector: mode === 'lexical' ? undefined : vector,
    terms: mode === 'semantic' ? [] : queryTerms(questionWithoutWordsOfTime(question)),
    entities: hybrid ? entityTerms(question) : [],
    cues: hybrid ? attributeCueTerms(question) : [],
    range: hybrid ? timeRangeOf(question, now, { timeline: stages.dates }) : undefined,
    words: termWords(question),
    stages,
  };
}

const none = <T>(filters: MemoryFilter[]): T[][] => filters.map(() => []);

/** The candidates of each filter (all of one user), best first, at most `pool` per signal. */
export async function retrieve(
  store: MemoryStore,
  plan: QueryPlan,
  filters: MemoryFilter[],
  pool: number,
): Promise<Candidate[][]> {
  const text = (terms: string[]): Promise<TextHit[][]> =>
    terms.length ? store.searchText(terms, filters, pool) : Promise.resolve(none(filters));
  // Lexical lookups first: they run while the query embedding is still being computed.
  const lexical = text(plan.terms);
  const entity = text(plan.entities);
  const range = plan.range;
  const inRange = range ? filters.map((f) => ({ ...f, created_from: range.from, created_to: range.to })) : [];
  const dense = async (): Promise<VectorHit[][]> => {
    if (!plan.vector) return none(filters);
    const vector = await plan.vector;
    // One pass over the vectors answers the filters and their in-range twins together.
    const all = [...filters, ...inRange];
    return store.searchMany
      ? store.searchMany(vector, all, pool)
      : Promise.all(all.map((f) => store.search(vector, f, pool)));
  };
  const vectorLists = await dense();
  const semantic = vectorLists.slice(0, filters.length);
  const timed = range && plan.vector ? vectorLists.slice(filters.length) : none<VectorHit>(filters);
  const [lexicalLists, entityLists] = await Promise.all([lexical, entity]);
  const fusedLists = filters.map((_, i) =>
    fuse(plan, pool, semantic[i], lexicalLists[i], entityLists[i], timed[i]),
  );
  if (plan.mode !== 'hybrid') return fusedLists.map((f) => calibrate(plan, f.candidates));
  return Promise.all(
    fusedLists.map(async (f, i) => {
      const shares = plan.stages.neighbours
        ? await neighbourTurns(store, filters[i], f)
        : new Map<string, NeighbourShare>();
      return calibrate(plan, rerankStage(plan, pool, f, shares));
    }),
  );
}

/** The share of relevance each memory next to one of the best candidates inherits. */
async function neighbourTurns(
  store: MemoryStore,
  filter: MemoryFilter,
  f: FusedList,
): Promise<Map<string, NeighbourShare>> {
  if (!f.candidates.length) return new Map();
  const sources = f.candidates.slice(0, NEIGHBOUR_TURNS.sources);
  const found = await store.neighbours(
    sources.map((c) => c.record.id),
    filter,
    NEIGHBOUR_TURNS.span,
  );
  const known = new Set(f.candidates.map((c) => c.record.id));
  for (const list of found.values())
    for (const r of list)
      if (!known.has(r.id)) {
        known.add(r.id);
        f.candidates.push({ record: r, score: f.floors.fused, signals: {} });
      }
  return neighbourShares(
    sources.map((c) => ({ record: c.record, score: c.score })),
    found,
    NEIGHBOUR_TURNS,
  );
}

/** Calibrated relevance over the candidates' final scores; calibration never reorders them. */
function calibrate(plan: QueryPlan, fused: Fused[]): Candidate[] {
  const features = relevanceFeatures(fused.map((f) => f.score));
  const calibration = CALIBRATIONS[plan.mode];
  return fused.map((f, i) => ({
    record: f.record,
    relevance: calibratedRelevance(features[i], calibration),
    signals: f.signals,
    features: features[i],
    ...(f.rerank ? { rerank: f.rerank } : {}),
  }));
}

function fuse(
  plan: QueryPlan,
  pool: number,
  semantic: VectorHit[],
  lexical: TextHit[],
  entity: TextHit[],
  timed: VectorHit[],
): FusedList {
  const records = new Map<string, MemoryRecord>();
  const signals = new Map<string, MatchSignals>();
  const signal = (record: MemoryRecord): MatchSignals => {
    records.set(record.id, record);
    let s = signals.get(record.id);
    if (!s) signals.set(record.id, (s = {}));
    return s;
  };
  for (const h of semantic) signal(h.record).semantic = h.similarity;
  const shown = (terms: string[]) => [...new Set(terms.map((t) => plan.words.get(t) ?? t))];
  for (const h of lexical) signal(h.record).lexical = { relevance: h.relevance, terms: shown(h.matched) };
  for (const h of entity) signal(h.record).entities = shown(h.matched);
  for (const h of timed) signal(h.record).time = plan.range!.text;

  const vectorHits = (hits: VectorHit[]): RankedHit[] =>
    hits.map((h) => ({ id: h.record.id, score: h.similarity }));
  const textHits = (hits: TextHit[]): RankedHit[] =>
    hits.map((h) => ({ id: h.record.id, score: h.relevance }));
  // A list cut at the pool size says an absent memory scored at most its last score.
  const floor = (scores: RankedHit[]) => (scores.length >= pool ? (scores.at(-1)?.score ?? 0) : 0);
  // The time list rewards being in the range: outside it a memory scores 0, not the list's floor.
  const lists: { hits: RankedHit[]; weight: number; floor?: number }[] =
    plan.mode === 'semantic'
      ? [{ hits: vectorHits(semantic), weight: 1 }]
      : plan.mode === 'lexical'
        ? [{ hits: textHits(lexical), weight: 1 }]
        : [
            { hits: vectorHits(semantic), weight: HYBRID_WEIGHTS.semantic },
            { hits: textHits(lexical), weight: HYBRID_WEIGHTS.lexical },
            ...(plan.entities.length ? [{ hits: textHits(entity), weight: HYBRID_WEIGHTS.entity }] : []),
            ...(plan.range ? [{ hits: vectorHits(timed), weight: HYBRID_WEIGHTS.time, floor: 0 }] : []),
          ];
  const floors = lists.map((l) => l.floor ?? floor(l.hits));
  const fused = fuseRankings(
    lists.map((l) => l.hits),
    { method: 'weighted', weights: lists.map((l) => l.weight), floors },
  );
  const totalWeight = lists.reduce((a, l) => a + l.weight, 0);
  return {
    candidates: fused.map((f) => ({
      record: records.get(f.id)!,
      score: f.score,
      signals: signals.get(f.id)!,
    })),
    floors: {
      semantic: floor(vectorHits(semantic)),
      lexical: floor(textHits(lexical)),
      fused: totalWeight ? lists.reduce((a, l, i) => a + l.weight * floors[i], 0) / totalWeight : 0,
    },
  };
}
