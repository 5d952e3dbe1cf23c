/**
 * Retrieval by search mode (docs/memory-search.md): the candidate lists of each signal from the
 * store, fused into one relevance in [0, 1] per memory, with the signals that found it.
 *
 * - `semantic`: cosine similarity of the query embedding, nothing else (the relevance is the
 *   similarity);
 * - `lexical`: BM25 over the memory's terms, normalized (search/lexical-index.ts);
 * - `hybrid`: semantic and lexical, plus an entity list (BM25 over only the things the question
 *   names) when it names any, and a time list (semantic within the range) when it names a time,
 *   fused with weights (search/rank-fusion.ts).
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
import { relevanceFeatures, type RelevanceFeatures } from './relevance-features';
import { entityTerms, queryTerms, termWords } from './text-terms';
import { timeRangeOf, type TimeRange } from './time-expressions';

/** What each signal said about a result (shown in search results and by `plat memory search`). */
export interface MatchSignals {
  /** Cosine similarity in [0, 1], when the semantic list held the memory. */
  semantic?: number;
  /** Normalized BM25 relevance and the question's words the memory holds (by their terms). */
  lexical?: { relevance: number; terms: string[] };
  /** The named things of the question the memory holds (its words). */
  entities?: string[];
  /** The question's time expression, when the memory lies in its range. */
  time?: string;
}

/** A memory with its calibrated relevance in [0, 1]. */
export interface Candidate {
  record: MemoryRecord;
  /** The calibrated relevance (search/calibration.ts): what `min_score` and time decay apply to. */
  relevance: number;
  signals: MatchSignals;
  /** What calibration read (the fused relevance among them), for benchmarks and fitting. */
  features: RelevanceFeatures;
}

/** What a question asks for, analysed once per search. */
export interface QueryPlan {
  mode: SearchMode;
  /**
   * The query embedding (absent in lexical mode), still computing: the embedder runs in a worker
   * thread, so lexical lookups proceed meanwhile and only the vector scan waits for it.
   */
  vector?: Promise<Float32Array>;
  terms: string[];
  entities: string[];
  range?: TimeRange;
  /** Term → the question's word it came from, to show matches in the user's words. */
  words: Map<string, string>;
}

/** Fusion weights of the hybrid mode, tuned on LoCoMo's first conversations (see bench/locomo.ts). */
export const HYBRID_WEIGHTS = { semantic: 1, lexical: 1, entity: 0.25, time: 0.5 };

export function queryPlan(
  mode: SearchMode,
  question: string,
  vector: Promise<Float32Array> | undefined,
  now: Date,
): QueryPlan {
  const hybrid = mode === 'hybrid';
  return {
    mode,
    vector: mode === 'lexical' ? undefined : vector,
    terms: mode === 'semantic' ? [] : queryTerms(question),
    entities: hybrid ? entityTerms(question) : [],
    range: hybrid ? timeRangeOf(question, now) : undefined,
    words: termWords(question),
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
  return filters.map((_, i) => fuse(plan, pool, semantic[i], lexicalLists[i], entityLists[i], timed[i]));
}

function fuse(
  plan: QueryPlan,
  pool: number,
  semantic: VectorHit[],
  lexical: TextHit[],
  entity: TextHit[],
  timed: VectorHit[],
): Candidate[] {
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
  const fused = fuseRankings(
    lists.map((l) => l.hits),
    {
      method: 'weighted',
      weights: lists.map((l) => l.weight),
      floors: lists.map((l) => l.floor ?? floor(l.hits)),
    },
  );
  const features = relevanceFeatures(fused.map((f) => f.score));
  const calibration = CALIBRATIONS[plan.mode];
  // Calibration never ranks a lower fused relevance above a higher one: fusion's order stands.
  return fused.map((f, i) => ({
    record: records.get(f.id)!,
    relevance: calibratedRelevance(features[i], calibration),
    signals: signals.get(f.id)!,
    features: features[i],
  }));
}
