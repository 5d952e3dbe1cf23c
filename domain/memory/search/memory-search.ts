/**
 * Search and combined search (docs/memory-search.md): the question planned for its mode, candidates
 * retrieved and fused per scope (the user's, and always the shared space), then `min_score`, time
 * decay, merging and the cut to `top_k`.
 */
import { SHARED_USER, type MemorySearchItem } from '../../../shared/memory-model';
import {
  asOfInstant,
  type SearchCombinedRequest,
  type SearchMode,
  type SearchRequest,
} from '../../../shared/memory-requests';
import type { Embedder } from '../embedding/embedder';
import type { MemoryFilter, MemoryStore } from '../store/memory-store';
import { queryPlan, retrieve, type Candidate, type QueryPlan } from './hybrid-retrieval';
import { mergeResults } from './result-merge';
import { searchStages } from './search-stages';
import { decayedScore } from './time-decay';
import { answerWeights, wordsAskedAbout } from './answer-weights';
import { wordsNear, type WordsNear } from '../embedding/words-beyond-table';
import { questionTime } from './question-time';
import type { TimeRange } from './time-expressions';

const DAY_MS = 86_400_000;

export class MemorySearch {
  constructor(
    private readonly store: MemoryStore,
    private readonly embedder: Embedder,
    private readonly now: () => Date,
  ) {}

  async search(req: SearchRequest): Promise<{ results: MemorySearchItem[] }> {
    const validAt = asOfInstant(req.as_of);
    const plan = this.plan(req, validAt);
    // A question about the past, asked of no day in particular, reads earlier versions too.
    const earlier = validAt === undefined && questionTime(req.query) === 'then';
    const filter: MemoryFilter = {
      user_id: req.user_id,
      agent_id: req.agent_id,
      run_id: req.run_id,
      valid_at: validAt,
      ...(earlier ? { include_earlier: true } : {}),
    };
    const pool = this.pool(req);
    // The shared space is cross-agent and long-term: no agent or day filter.
    const [[own], [shared], near] = await Promise.all([
      retrieve(this.store, plan, [filter], pool),
      this.sharedCandidates(plan, req.user_id, pool, validAt),
      this.wordsNearAsked(req.query, plan.range),
    ]);
    return { results: this.rankCandidates(own, shared, req, near, validAt, plan.range) };
  }

  async searchCombined(req: SearchCombinedRequest): Promise<{ results: MemorySearchItem[] }> {
    const plan = this.plan(req);
    const firstDay = new Date(this.now().getTime() - (req.recent_days - 1) * DAY_MS)
      .toISOString()
      .slice(0, 10);
    const longTerm: MemoryFilter = { user_id: req.user_id, agent_id: req.agent_id, long_term: true };
    const shortTerm: MemoryFilter = { user_id: req.user_id, agent_id: req.agent_id, run_id_from: firstDay };
    const pool = this.pool(req);
    // Both lists from one pass over the user's indexes; the shared space is long-term.
    const [[own, recent], [shared], near] = await Promise.all([
      retrieve(this.store, plan, [longTerm, shortTerm], pool),
      this.sharedCandidates(plan, req.user_id, pool),
      this.wordsNearAsked(req.query, plan.range),
    ]);
    return {
      results: mergeResults([
        this.rankCandidates(own, shared, req, near),
        this.rankCandidates(recent, [], req, near),
      ]),
    };
  }

  /**
   * The question analysed for its mode: embedding (not for lexical, still running), terms, entities,
   * time (read against `validAt` when the search asks as of then).
   */
  private plan(req: { query: string; search_mode: SearchMode }, validAt?: string): QueryPlan {
    const vector =
      req.search_mode === 'lexical' ? undefined : this.embedder.embed([req.query], 'query').then(([v]) => v);
    // Retrieval awaits it; until then a failed embedding must not count as unhandled.
    vector?.catch(() => {});
    // Read per search, so a benchmark can measure each stage alone (search/search-stages.ts).
    const stages = searchStages(process.env.PLAT_MEMORY_SEARCH_STAGES);
    return queryPlan(req.search_mode, req.query, vector, validAt ? new Date(validAt) : this.now(), stages);
  }

  private sharedCandidates(
    plan: QueryPlan,
    userId: string,
    pool: number,
    validAt?: string,
  ): Promise<Candidate[][]> {
    return userId === SHARED_USER
      ? Promise.resolve([[]])
      : retrieve(this.store, plan, [{ user_id: SHARED_USER, valid_at: validAt }], pool);
  }

  /**
   * Which words are near what the question asks about, by the model's word table and, for a word the
   * table lacks, by the table's words nearest it (embedding/words-beyond-table.ts).
   */
  private wordsNearAsked(query: string, range?: TimeRange): Promise<WordsNear | undefined> {
    return wordsNear(this.embedder, wordsAskedAbout(query, range));
  }

  /**
   * Candidates per signal. Fusion needs depth (a memory second in both lists beats one first in
   * one), and decay can lift an older-but-close memory above a newer one: both widen it past top_k.
   */
  private pool(opts: { top_k: number; time_decay: boolean; search_mode: SearchMode }): number {
    return opts.time_decay || opts.search_mode === 'hybrid' ? Math.max(opts.top_k * 4, 40) : opts.top_k;
  }

  /**
   * Scored items, merged and cut to top_k: `min_score` on the calibrated relevance (which compares
   * across questions), then the question's weighting of what can answer it (answer-weights.ts,
   * over the user's and the shared space's candidates together), then decay.
   */
  private rankCandidates(
    own: Candidate[],
    shared: Candidate[],
    opts: { query: string; top_k: number; min_score: number; time_decay: boolean },
    near: WordsNear | undefined,
    validAt?: string,
    range?: TimeRange,
  ): MemorySearchItem[] {
    // As of a past instant, ages are counted back from it.
    const now = validAt ? new Date(validAt) : this.now();
    const kept = (list: Candidate[], isShared: boolean) =>
      list
        .filter((c) => c.relevance >= opts.min_score)
        .map((c) => ({ ...c, isShared, signals: { ...c.signals, relevance: c.relevance } }));
    const weighed = answerWeights(opts.query, range, near)([...kept(own, false), ...kept(shared, true)]);
    const items = weighed.map((c) => this.item(c, c.isShared, now, opts.time_decay));
    return mergeResults([items], opts.top_k);
  }

  private item(c: Candidate, shared: boolean, now: Date, decay: boolean): MemorySearchItem {
    const r = c.record;
    const base = {
      id: r.id,
      memory: r.memory,
      created_at: r.created_at,
      user_id: r.user_id,
      agent_id: r.agent_id,
      run_id: r.run_id,
      metadata: r.metadata,
      memory_type: shared ? ('shared' as const) : r.run_id ? ('short_term' as const) : ('long_term' as const),
      valid_from: r.valid_from,
      valid_to: r.valid_to,
    };
    return decay
      ? {
          ...base,
          score: decayedScore(c.relevance, r.updated_at ?? r.created_at, now),
          original_score: c.relevance,
          signals: c.signals,
        }
      : { ...base, score: c.relevance, signals: c.signals };
  }
}
