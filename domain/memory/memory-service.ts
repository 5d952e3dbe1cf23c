/**
 * The memory service (docs/requirements.md#memories), the facade the REST app on port 8230 uses:
 * reads (semantic, lexical or hybrid search, docs/memory-search.md, with the shared space and time
 * decay; combined long/short-term search; list, changes, get, history) and the session-start context
 * here; adds in memory-adds.ts, update and delete in memory-edits.ts, re-embedding after a model
 * change in memory-reembedding.ts. Every change lands in history.
 */
import * as fs from 'node:fs';
import type {
  MemoryChangeItem,
  MemoryHistoryEntry,
  MemoryRecord,
  MemorySearchItem,
} from '../../shared/memory-model';
import type {
  AddMemoryRequest,
  ChangesQuery,
  ContextQuery,
  ListQuery,
  SearchCombinedRequest,
  SearchRequest,
  UpdateRequest,
} from '../../shared/memory-requests';
import { asOfInstant, DEFAULT_SEARCH_MODE } from '../../shared/memory-requests';
import { MemoryAdds, type AddResponse } from './memory-adds';
import { MemoryEdits, MemoryNotFoundError } from './memory-edits';
import { MemoryReembedding, type ReembedOptions, type ReembedProgress } from './memory-reembedding';
import type { MemoryServiceDeps } from './memory-service-deps';
import { supersedeEvidenceOf, type SupersedeEvidence } from './memory-superseding';
import { MemorySearch } from './search/memory-search';
import { CurrentVectorsStore } from './store/current-vectors';
import { inProcessUserWrites } from './store/user-writes';
import { callerMetadata } from './supersede/stated-subjects';
import { memoryChanges } from './validity/earlier-versions';
import { journalPath, workspaceOf } from './workspaces/workspace-config';

export { DUPLICATE_SIMILARITY } from './memory-adds';
export type { ReembedProgress } from './memory-reembedding';
export { FutureCreatedAtError } from './backfill-time';
export { MemoryNotFoundError } from './memory-edits';
export type { MemoryServiceDeps } from './memory-service-deps';

const DAY_MS = 86_400_000;

/** One day's journal as the context endpoint returns it. */
export interface JournalDay {
  date: string;
  file: string;
  content: string;
}

/** GET /memory/context: the three sources an agent session starts from. */
export interface SessionContext {
  user_id: string;
  agent_id: string | null;
  workspace: string | null;
  today: JournalDay | null;
  yesterday: JournalDay | null;
  search: { query: string; results: MemorySearchItem[] };
}

export class MemoryService {
  private readonly now: () => Date;
  private readonly searcher: MemorySearch;
  private readonly reembedding: MemoryReembedding;
  private readonly edits: MemoryEdits;
  private readonly adds: MemoryAdds;

  constructor(private readonly deps: MemoryServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    // Adds are serialized per user in this process, so an add's duplicate checks see the previous
    // add; across instances the store's `insertIfNew` stores one fact once (docs/fleet.md#memory).
    const serialized = inProcessUserWrites();
    this.reembedding = new MemoryReembedding({ ...deps, serialized });
    const [modelId, stale] = [() => deps.embedder.id, () => this.reembedding.mayBeStale()];
    // The store as searches see it: vectors of the current model only (store/current-vectors.ts).
    const vectorsNow = new CurrentVectorsStore(deps.store, modelId, stale);
    // Searches rank by the model's calibrated relevance; the duplicate check compares raw cosines.
    const calibrated = new CurrentVectorsStore(deps.store, modelId, stale, deps.embedder.relevanceFloor);
    this.searcher = new MemorySearch(calibrated, deps.embedder, this.now);
    this.edits = new MemoryEdits({ ...deps, now: this.now });
    this.adds = new MemoryAdds({ ...deps, now: this.now, serialized, vectorsNow, edits: this.edits });
  }

  /** Loads the embedding model (the first embed is slow) and counts the memories another model embedded. */
  async warmUp(): Promise<void> {
    await this.reembedding.warmUp();
  }

  /**
   * Loads every user's search indexes (embedded store), a user at a time: started beside serving,
   * since a request for a user not loaded yet loads that user itself.
   */
  async warmIndexes(): Promise<void> {
    await this.deps.store.warm?.();
  }

  /** Re-embeds memories another model embedded, in the background (MemoryReembedding.reembedStale). */
  async reembedStale(opts: ReembedOptions = {}): Promise<number> {
    return this.reembedding.reembedStale(opts);
  }

  /** Where the re-embedding after a model change stands (GET /health, the metrics). */
  reembedProgress(): ReembedProgress {
    return this.reembedding.reembedProgress();
  }

  /**
   * Which evidence the supersede step reads beyond the words on this instance
   * (memory-superseding.ts). Two instances of a fleet that differ decide differently, so /health
   * shows it.
   */
  supersedeEvidence(): SupersedeEvidence {
    return supersedeEvidenceOf(this.deps.embedder);
  }

  /** Stops a running re-embedding once the texts in the model's hands are done. */
  stopReembedding(): void {
    this.reembedding.stopReembedding();
  }

  /** Stops the store's background work (index loads, a shared store's change feed) and the audit log. */
  async close(): Promise<void> {
    await this.deps.store.close();
    await this.deps.audit.close();
  }

  /** Where memories live: `embedded`, `shared` (the fleet's PostgreSQL) or `qdrant`. */
  get storeKind(): string {
    return this.deps.store.kind;
  }

  /** Change-feed gaps this instance reloaded its users after (0 without a shared store). */
  get feedGaps(): number {
    return this.deps.store.feedGaps?.() ?? 0;
  }

  get embedderId(): string {
    return this.deps.embedder.id;
  }

  /** Adds memories (MemoryAdds.add); `opts.mayShare: false` keeps them out of the shared space. */
  async add(req: AddMemoryRequest, opts: { mayShare?: boolean } = {}): Promise<AddResponse> {
    return this.adds.add(req, opts);
  }

  async search(req: SearchRequest): Promise<{ results: MemorySearchItem[] }> {
    return this.searcher.search(req);
  }

  async searchCombined(req: SearchCombinedRequest): Promise<{ results: MemorySearchItem[] }> {
    return this.searcher.searchCombined(req);
  }

  async list(q: ListQuery): Promise<{ results: MemoryRecord[] }> {
    return {
      results: await this.deps.store.list(
        { user_id: q.user_id, agent_id: q.agent_id, run_id: q.run_id, valid_at: asOfInstant(q.as_of) },
        q.limit,
      ),
    };
  }

  /**
   * What changed (docs/memory-validity.md): each time a newer statement superseded a memory's
   * value, oldest first: the memory, what it said, what it says since, and when.
   */
  async changes(q: ChangesQuery): Promise<{ results: MemoryChangeItem[] }> {
    return { results: await memoryChanges(this.deps.store, q) };
  }

  async get(id: string): Promise<MemoryRecord> {
    return this.edits.get(id);
  }

  async update(req: UpdateRequest): Promise<MemoryRecord> {
    const metadata = req.metadata && callerMetadata(req.metadata);
    return (await this.edits.updateText(req.memory_id, req.text, metadata)).record;
  }

  async delete(id: string): Promise<MemoryRecord> {
    return this.edits.delete(id);
  }

  /**
   * Session-start context (docs/requirements.md#pipelines): today's and yesterday's journal of the user's workspace and a
   * combined search. Without a query, the search uses the end of the latest journal (what the agent
   * was doing), else a generic one.
   */
  async context(q: ContextQuery): Promise<SessionContext> {
    const ws = workspaceOf(this.deps.workspaces ?? [], q.user_id, q.agent_id);
    const now = this.now();
    const day = (offset: number) => new Date(now.getTime() - offset * DAY_MS).toISOString().slice(0, 10);
    const read = (date: string): JournalDay | null => {
      if (!ws) return null;
      const file = journalPath(ws, date);
      return fs.existsSync(file) ? { date, file, content: fs.readFileSync(file, 'utf8') } : null;
    };
    const today = read(day(0));
    const yesterday = read(day(1));
    const latest = (today ?? yesterday)?.content.trim();
    const query = q.query ?? (latest ? latest.slice(-500) : 'recent work, decisions and open tasks');
    const { results } = await this.searchCombined({
      query,
      user_id: q.user_id,
      agent_id: q.agent_id,
      top_k: q.top_k,
      recent_days: q.recent_days,
      min_score: 0,
      time_decay: true,
      search_mode: DEFAULT_SEARCH_MODE,
    });
    return {
      user_id: q.user_id,
      agent_id: q.agent_id ?? null,
      workspace: ws?.name ?? null,
      today,
      yesterday,
      search: { query, results },
    };
  }

  /** The changes of a memory, oldest first; 404 when the id never existed. */
  async history(id: string): Promise<{ results: MemoryHistoryEntry[] }> {
    const results = await this.deps.history.of(id);
    if (!results.length) throw new MemoryNotFoundError(id);
    return { results };
  }
}
