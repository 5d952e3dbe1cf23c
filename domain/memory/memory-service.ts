/**
 * The memory service (docs/requirements.md#memories): add with extraction and deduplication,
 * semantic, lexical or hybrid search (docs/memory-search.md) with the shared space and time decay, combined long/short-term search, list, get,
 * update, delete and history. Used by the REST app on port 8230; every change lands in history.
 */
import { soleReembedLease, type ReembedLease } from './reembed-lease';
import { inProcessUserWrites, type UserWrites } from './store/user-writes';
import { refuseFutureCreatedAt } from './backfill-time';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import {
  categoryOf,
  SHARED_CATEGORIES,
  SHARED_USER,
  type MemoryAddResult,
  type MemoryChangeItem,
  type MemoryHistoryEntry,
  type MemoryRecord,
  type MemorySearchItem,
  type TokenUsage,
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
import type { AuditSink } from './audit/audit-log';
import { CurrentVectorsStore } from './store/current-vectors';
import type { Embedder } from './embedding/embedder';
import {
  addUsage,
  NO_USAGE,
  statedValue,
  type FactExtractor,
  type StatedSubject,
} from './extraction/fact-extractor';
import { keepEarlierVersion, memoryChanges } from './validity/earlier-versions';
import {
  callerMetadata,
  sameStatedSubject,
  statedSubjectOf,
  withStatedSubject,
} from './supersede/stated-subjects';
import { readSubject, type FactSubject } from './extraction/fact-subject';
import type { HistoryLog, IdempotencyStore } from './memory-history';
import { textHash } from './memory-text';
import { sameSubjectMemories } from './same-subject';
import { replacedMemories } from './supersede/replaced-memories';
import { withSlotWords } from './supersede/slot-words';
import { MemorySearch } from './search/memory-search';
import type { MemoryFilter, MemoryStore, VectorHit } from './store/memory-store';
import { journalPath, workspaceOf, type Workspace } from './workspaces/workspace-config';

/** A new fact this close to an existing memory is the same memory said again. */
export const DUPLICATE_SIMILARITY = 0.95;
/** Texts embedded at a time when re-embedding: what a search's question may wait behind. */
const REEMBED_CHUNK = 4;

/** The re-embedding after a model change (MemoryService.reembedStale). */
export interface ReembedProgress {
  /** The current model's id. */
  embedder: string;
  running: boolean;
  /** Memories still holding another model's vector. */
  pending: number;
  /** Redone by the running re-embedding, of `total`. */
  done: number;
  total: number;
  /** done / total, 100 when nothing runs. */
  percent: number;
  /** Another instance of the fleet holds the re-embedding: this one serves and tries again later. */
  elsewhere: boolean;
}
/** Neighbours at least this similar are shown to the model to decide update/delete/none. */
const RELATED_SIMILARITY = 0.5;
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

type AddResponse = { results: MemoryAddResult[]; token_usage: TokenUsage; idempotent_replay?: boolean };

export interface MemoryServiceDeps {
  idempotency?: IdempotencyStore;
  /** Agent workspaces, for the session-start context's journals. */
  workspaces?: Workspace[];
  store: MemoryStore;
  history: HistoryLog;
  embedder: Embedder;
  extractor: FactExtractor;
  audit: AuditSink;
  /** Copy experience/procedural long-term memories to the shared space (PLAT_MEMORY_AUTOSHARE). */
  autoshare?: boolean;
  /** One re-embedding at a time across a fleet (reembed-lease.ts); default: this instance runs it. */
  reembedLease?: ReembedLease;
  now?: () => Date;
}

/** A memory that does not exist (404). */
export { FutureCreatedAtError } from './backfill-time';

export class MemoryNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`no memory with id ${id}`);
    this.name = 'MemoryNotFoundError';
  }
}

export class MemoryService {
  private readonly now: () => Date;
  /**
   * Adds are serialized per user in this process, so an add's duplicate checks see the previous
   * add; across instances the store's `insertIfNew` stores one fact once (docs/fleet.md#memory).
   */
  private readonly serialized: UserWrites = inProcessUserWrites();

  private readonly searcher: MemorySearch;
  /** The store as searches see it: vectors of the current model only (store/current-vectors.ts). */
  private readonly vectorsNow: CurrentVectorsStore;
  /** Memories another model embedded, as last counted (undefined: not counted yet). */
  private staleLeft: number | undefined;
  private reembedding: { total: number; done: number; started: number } | undefined;
  /** The last re-embedding found another instance running it. */
  private reembeddingElsewhere = false;
  /** Set when the process shuts down: re-embedding stops after the texts in the model's hands. */
  private stopping = false;

  constructor(private readonly deps: MemoryServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.vectorsNow = new CurrentVectorsStore(
      deps.store,
      () => deps.embedder.id,
      () => this.staleLeft !== 0,
    );
    // Searches rank by the model's calibrated relevance; the duplicate check compares raw cosines.
    const calibrated = new CurrentVectorsStore(
      deps.store,
      () => deps.embedder.id,
      () => this.staleLeft !== 0,
      deps.embedder.relevanceFloor,
    );
    this.searcher = new MemorySearch(calibrated, deps.embedder, this.now);
  }

  /** Loads the embedding model (the first embed is slow) and counts the memories another model embedded. */
  async warmUp(): Promise<void> {
    await this.deps.embedder.embed(['warm up']);
    this.staleLeft = await this.deps.store.countStale(this.deps.embedder.id);
  }

  /**
   * Loads every user's search indexes (embedded store), a user at a time: started beside serving,
   * since a request for a user not loaded yet loads that user itself.
   */
  async warmIndexes(): Promise<void> {
    await this.deps.store.warm?.();
  }

  /**
   * Re-embeds memories whose vectors another model made (the embedder id is stored with each
   * vector), so a model change never mixes incomparable vectors; meant to run in the background
   * beside serving (docs/memory-search.md#the-embedding-model). Until a memory is redone, searches
   * find it by its terms only. A few texts are embedded at a time, so a search's question waits
   * behind at most those in the model's worker. `onProgress` is called after each page. Answers how
   * many were redone.
   */
  async reembedStale(
    opts: { page?: number; onProgress?: (p: ReembedProgress) => void } = {},
  ): Promise<number> {
    const { store, embedder } = this.deps;
    const total = await store.countStale(embedder.id);
    this.staleLeft = total;
    if (!total) {
      this.reembeddingElsewhere = false;
      return 0;
    }
    const lease = this.deps.reembedLease ?? soleReembedLease;
    const outcome = await lease(() => this.reembedPages(opts));
    this.reembeddingElsewhere = !outcome.ran;
    return outcome.ran ? outcome.result : 0;
  }

  /** The re-embedding itself, page after page, once this instance holds the lease. */
  private async reembedPages(opts: {
    page?: number;
    onProgress?: (p: ReembedProgress) => void;
  }): Promise<number> {
    const { store, embedder } = this.deps;
    const id = embedder.id;
    // Counted again under the lease: another instance may have redone some meanwhile.
    const total = await store.countStale(id);
    this.staleLeft = total;
    if (!total) return 0;
    const run = { total, done: 0, started: Date.now() };
    this.reembedding = run;
    try {
      for (;;) {
        const stale = await store.staleRecords(id, opts.page ?? 64);
        if (!stale.length) break;
        for (let start = 0; start < stale.length && !this.stopping; start += REEMBED_CHUNK) {
          const chunk = stale.slice(start, start + REEMBED_CHUNK);
          const vectors = await embedder.embed(chunk.map((r) => r.memory));
          for (const [i, r] of chunk.entries()) {
            // Serialized with the user's adds, and only if the memory is still what was embedded.
            await this.serialized(r.user_id, async () => {
              const now = await store.get(r.id);
              if (!now || now.hash !== r.hash || now.embedder === id) return;
              await store.update(
                r.id,
                { memory: now.memory, hash: now.hash, updated_at: now.updated_at, embedder: id },
                vectors[i],
              );
            });
          }
          run.done += chunk.length;
        }
        this.staleLeft = Math.max(0, run.total - run.done);
        opts.onProgress?.(this.reembedProgress());
        // What is left waits for the next start (it resumes where this one stopped).
        if (this.stopping) return run.done;
      }
      // Memories written by another model meanwhile (a fleet instance still on the old one) wait for the next start.
      this.staleLeft = await store.countStale(id);
      return run.done;
    } finally {
      this.reembedding = undefined;
    }
  }

  /** Where the re-embedding after a model change stands (GET /health, the metrics). */
  reembedProgress(): ReembedProgress {
    const run = this.reembedding;
    const done = run ? Math.min(run.done, run.total) : 0;
    return {
      embedder: this.deps.embedder.id,
      running: run !== undefined,
      pending: run ? run.total - done : (this.staleLeft ?? 0),
      done,
      total: run?.total ?? 0,
      percent: run ? Math.floor((100 * done) / run.total) : 100,
      elsewhere: !run && this.reembeddingElsewhere,
    };
  }

  /**
   * Asks a running re-embedding to stop once the texts the model is embedding are done: ending the
   * process while the model's worker thread is mid-batch aborts it (onnxruntime's native code).
   */
  stopReembedding(): void {
    this.stopping = true;
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

  /**
   * Adds memories. `opts.mayShare: false` keeps this add's experience and procedural memories out of
   * the shared space even with autoshare on: a caller that may not write it does not write it through
   * the server either (docs/security.md#memory).
   */
  async add(req: AddMemoryRequest, opts: { mayShare?: boolean } = {}): Promise<AddResponse> {
    refuseFutureCreatedAt(req.created_at, this.now());
    const share = opts.mayShare ?? true;
    return this.serialized(req.user_id, async () => {
      const keys = this.deps.idempotency;
      if (!req.idempotency_key || !keys) return this.addNow(req, share);
      // One agent's key is not another's: a retry answers only what the same user and agent added.
      const key = `${req.user_id}\u0000${req.agent_id ? `${req.agent_id}\u0000` : ''}${req.idempotency_key}`;
      const { result, replay } = await keys.once<AddResponse>(key, () => this.addNow(req, share));
      // A replay answers what the first add did, marked, and costs nothing.
      return replay ? { ...result, token_usage: NO_USAGE, idempotent_replay: true } : result;
    });
  }

  private async addNow(
    req: AddMemoryRequest,
    mayShare: boolean,
  ): Promise<{ results: MemoryAddResult[]; token_usage: TokenUsage }> {
    const { embedder, extractor, audit } = this.deps;
    const { facts, subjects, usage: extracted } = await this.factsOf(req);
    let usage = extracted;
    const scope: MemoryFilter = {
      user_id: req.user_id,
      agent_id: req.agent_id,
      ...(req.run_id ? { run_id: req.run_id } : { long_term: true }),
    };
    const vectors = facts.length ? await embedder.embed(facts) : [];
    const results: MemoryAddResult[] = [];
    for (const [i, fact] of facts.entries()) {
      const added = await this.addFact(req, scope, fact, vectors[i], subjects[i], mayShare);
      results.push(added.result);
      if (added.usage) usage = addUsage(usage, added.usage);
    }
    await audit.append({
      type: 'token_usage',
      operation: 'add',
      user_id: req.user_id,
      agent_id: req.agent_id ?? null,
      run_id: req.run_id ?? null,
      extractor: req.infer ? extractor.kind : 'none',
      facts: facts.length,
      ...usage,
    });
    return { results, token_usage: usage };
  }

  /** The facts an add stores: extracted (infer), or the text as it came, with what the model stated of each. */
  private async factsOf(
    req: AddMemoryRequest,
  ): Promise<{ facts: string[]; subjects: (StatedSubject | undefined)[]; usage: TokenUsage }> {
    if (!req.infer)
      return {
        facts: [req.text ?? req.messages!.map((m) => `${m.role}: ${m.content}`).join('\n')],
        subjects: [],
        usage: NO_USAGE,
      };
    const category = categoryOf(req.metadata ?? {}) ?? undefined;
    const extracted = await this.deps.extractor.extract(
      { text: req.text, messages: req.messages },
      req.custom_extraction_prompt,
      category,
    );
    return {
      facts: extracted.facts,
      subjects: extracted.subjects ?? [],
      usage: addUsage(NO_USAGE, extracted.usage),
    };
  }

  /**
   * One fact of an add: NONE when its text or its meaning is known, UPDATE when it supersedes an
   * earlier memory (docs/memory-supersede.md), the model's decision with Claude, else ADD.
   */
  private async addFact(
    req: AddMemoryRequest,
    scope: MemoryFilter,
    fact: string,
    vector: Float32Array,
    stated: StatedSubject | undefined,
    mayShare: boolean,
  ): Promise<{ result: MemoryAddResult; usage?: TokenUsage }> {
    const { store, extractor, embedder } = this.deps;
    const hash = textHash(fact);
    const same = await store.findByHash(scope, hash);
    if (same) return { result: { id: same.id, memory: same.memory, event: 'NONE' } };
    let neighbours: VectorHit[] = [];
    // Earlier memories setting the same single-valued attribute (docs/memory-supersede.md).
    let earlier: MemoryRecord[] = [];
    if (req.infer) {
      neighbours = await this.vectorsNow.search(vector, scope, 5);
      const found = await this.supersedeOffline(req, scope, fact, vector, stated, neighbours);
      if (found.superseded) return { result: found.superseded };
      earlier = found.earlier;
      // A near-identical text stating another value ("… in Bern" for "… in Berlin") is no duplicate.
      const value = found.subject?.value;
      const contradicted = new Set(
        earlier.filter((r) => readSubject(r.memory)?.value !== value).map((r) => r.id),
      );
      const nearest = neighbours[0];
      if (
        nearest &&
        nearest.similarity >= (embedder.similarity?.duplicate ?? DUPLICATE_SIMILARITY) &&
        !contradicted.has(nearest.record.id)
      )
        return { result: { id: nearest.record.id, memory: nearest.record.memory, event: 'NONE' } };
    }
    const relatedAt = embedder.similarity?.related ?? RELATED_SIMILARITY;
    const related = neighbours.filter((n) => n.similarity >= relatedAt).map((n) => n.record);
    // The model also sees same-subject memories too far in meaning to be neighbours.
    for (const r of earlier) if (!related.some((n) => n.id === r.id)) related.push(r);
    let usage: TokenUsage | undefined;
    if (req.infer && extractor.kind === 'claude' && related.length) {
      const decided = await this.decideWithModel(req, fact, related);
      if (decided.result) return { result: decided.result, usage: decided.usage };
      usage = decided.usage;
    }
    // Another add (this instance's or another's) may have stored the fact since the check above.
    const { record, added } = await this.insert(
      {
        ...req,
        metadata: stated
          ? withStatedSubject(callerMetadata(req.metadata), stated)
          : callerMetadata(req.metadata),
      },
      scope,
      fact,
      hash,
      vector,
    );
    if (!added) return { result: { id: record.id, memory: record.memory, event: 'NONE' }, usage };
    if (this.deps.autoshare && mayShare) await this.share(record, vector);
    return { result: { id: record.id, memory: record.memory, event: 'ADD' }, usage };
  }

  /**
   * The earlier memory a fact supersedes without asking a model: one of the attribute the model
   * stated (docs/memory-validity.md#with-claude), else, offline, one of the subject the reader reads
   * or one the evidence in the words shows (docs/memory-supersede.md#by-evidence). With Claude,
   * the earlier memories found go to the model with the neighbours instead.
   */
  private async supersedeOffline(
    req: AddMemoryRequest,
    scope: MemoryFilter,
    fact: string,
    vector: Float32Array,
    stated: StatedSubject | undefined,
    neighbours: VectorHit[],
  ): Promise<{ superseded?: MemoryAddResult; earlier: MemoryRecord[]; subject?: FactSubject }> {
    const { store, extractor } = this.deps;
    // The model named the attribute: an earlier memory of the same one is superseded without
    // asking it again.
    const superseded = stated && (await this.supersedeStated(req, fact, stated, scope, neighbours, vector));
    const subject = readSubject(fact);
    if (superseded) return { superseded, earlier: [], subject };
    const earlier = subject ? await sameSubjectMemories(store, scope, subject, neighbours) : [];
    // No earlier statement of the subject the reader knows: evidence in the words. When one is
    // found, its key is precise.
    const replaced = earlier.length ? [] : await replacedMemories(store, scope, fact, neighbours);
    if (extractor.kind !== 'claude') {
      const offline =
        subject && earlier.length
          ? await this.supersede(
              req,
              fact,
              earlier[0],
              vector,
              readSubject(earlier[0].memory)?.value === subject.value,
            )
          : replaced.length
            ? await this.supersede(req, fact, replaced[0], vector, false)
            : undefined;
      if (offline) return { superseded: offline, earlier, subject };
    }
    return { earlier: [...earlier, ...replaced], subject };
  }

  /**
   * Claude's decision on a fact among the memories it relates to: NONE, UPDATE (what the memory said
   * until now kept as a version), DELETE; none of these answers no result (the fact is added).
   */
  private async decideWithModel(
    req: AddMemoryRequest,
    fact: string,
    related: MemoryRecord[],
  ): Promise<{ result?: MemoryAddResult; usage: TokenUsage }> {
    const { decision, usage } = await this.deps.extractor.decide(
      fact,
      related.map((r) => ({ id: r.id, memory: r.memory })),
    );
    if (decision.event === 'NONE') {
      const known = related[0];
      return { result: { id: known.id, memory: known.memory, event: 'NONE' }, usage };
    }
    if (decision.event === 'UPDATE') {
      const at = req.created_at ? new Date(req.created_at).toISOString() : undefined;
      const { record, previous } = await this.updateText(decision.id, decision.text, undefined, {
        at,
        supersede: true,
      });
      return {
        result: { id: record.id, memory: record.memory, event: 'UPDATE', previous_memory: previous },
        usage,
      };
    }
    if (decision.event === 'DELETE') {
      const removed = await this.delete(decision.id);
      return { result: { id: removed.id, memory: removed.memory, event: 'DELETE' }, usage };
    }
    return { usage };
  }

  /**
   * Stores the fact unless a memory with its hash is in `scope` by now; answers the memory stored
   * and whether this call added it. The check and the insert are one step for every instance.
   */
  private async insert(
    req: Pick<AddMemoryRequest, 'user_id' | 'agent_id' | 'run_id' | 'metadata' | 'created_at'>,
    scope: MemoryFilter,
    fact: string,
    hash: string,
    vector: Float32Array,
  ): Promise<{ record: MemoryRecord; added: boolean }> {
    const at = req.created_at ? new Date(req.created_at).toISOString() : this.now().toISOString();
    const metadata = req.metadata ?? {};
    const record: MemoryRecord = {
      id: randomUUID(),
      memory: fact,
      user_id: req.user_id,
      agent_id: req.agent_id ?? null,
      run_id: req.run_id ?? null,
      metadata,
      category: categoryOf(metadata),
      hash,
      created_at: at,
      updated_at: at,
      embedder: this.deps.embedder.id,
      valid_from: at,
      valid_to: null,
      version_of: null,
    };
    const stored = await this.deps.store.insertIfNew(scope, record, vector);
    if (stored.id !== record.id) return { record: stored, added: false };
    await this.deps.history.record(record.id, 'ADD', null, fact, at);
    return { record, added: true };
  }

  /**
   * Offline, a fact setting an attribute an earlier memory sets (docs/memory-supersede.md): the same
   * value is already known (NONE); another value replaces the memory's text, the old one kept in
   * history (UPDATE). A backfilled fact older than the memory's last change supersedes nothing.
   */
  private async supersede(
    req: Pick<AddMemoryRequest, 'created_at'>,
    fact: string,
    earlier: MemoryRecord,
    vector: Float32Array,
    sameValue: boolean,
    metadata?: Record<string, unknown>,
  ): Promise<MemoryAddResult | undefined> {
    if (sameValue) return { id: earlier.id, memory: earlier.memory, event: 'NONE' };
    const at = req.created_at ? new Date(req.created_at).toISOString() : this.now().toISOString();
    if (at < earlier.updated_at) return undefined;
    const { record, previous } = await this.updateText(earlier.id, fact, metadata, {
      at,
      vector,
      supersede: true,
    });
    return { id: record.id, memory: record.memory, event: 'UPDATE', previous_memory: previous };
  }

  /** A fact whose attribute the model named, against the current memory stating the same one, if any. */
  private async supersedeStated(
    req: Pick<AddMemoryRequest, 'created_at'>,
    fact: string,
    stated: StatedSubject,
    scope: MemoryFilter,
    neighbours: VectorHit[],
    vector: Float32Array,
  ): Promise<MemoryAddResult | undefined> {
    const [earlier] = await sameStatedSubject(this.deps.store, scope, stated, neighbours);
    if (!earlier) return undefined;
    const same = statedValue(statedSubjectOf(earlier)!) === statedValue(stated);
    return this.supersede(req, fact, earlier, vector, same, withStatedSubject(earlier.metadata, stated));
  }

  /** Copies a long-term experience/procedural memory to the shared space, once. */
  private async share(record: MemoryRecord, vector: Float32Array): Promise<void> {
    if (record.user_id === SHARED_USER || record.run_id || !SHARED_CATEGORIES.includes(record.category ?? ''))
      return;
    const sharedScope: MemoryFilter = { user_id: SHARED_USER, long_term: true };
    if (await this.deps.store.findByHash(sharedScope, record.hash)) return;
    await this.insert(
      {
        user_id: SHARED_USER,
        metadata: {
          // A model's reading of the user's attribute is the user's, not the shared space's.
          ...callerMetadata(record.metadata),
          shared_from: { memory_id: record.id, user_id: record.user_id, agent_id: record.agent_id },
        },
        created_at: record.created_at,
      },
      sharedScope,
      record.memory,
      record.hash,
      vector,
    );
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
    const record = await this.deps.store.get(id);
    if (!record) throw new MemoryNotFoundError(id);
    return record;
  }

  async update(req: UpdateRequest): Promise<MemoryRecord> {
    const metadata = req.metadata && callerMetadata(req.metadata);
    return (await this.updateText(req.memory_id, req.text, metadata)).record;
  }

  /**
   * Replaces a memory's text (and its vector, at `opts.at`, default now), recording the change.
   * A change in the world (`opts.supersede`: a newer statement of the attribute) keeps what the
   * memory said until then as an earlier version and makes the memory hold from `at`; a correction
   * (PUT /memory/update) rewrites what it says without a version (docs/memory-validity.md).
   */
  private async updateText(
    id: string,
    text: string,
    metadata?: Record<string, unknown>,
    opts: { at?: string; vector?: Float32Array; supersede?: boolean } = {},
  ): Promise<{ record: MemoryRecord; previous: string }> {
    const before = await this.get(id);
    const vector = opts.vector ?? (await this.deps.embedder.embed([text]))[0];
    const at = opts.at ?? this.now().toISOString();
    // The memory holds from `at` only when what it said until then was kept: a backfill dated before
    // its value began moves nothing back (no two values holding at once).
    const kept =
      opts.supersede && (await keepEarlierVersion(this.deps.store, this.deps.embedder, before, at));
    const updated = await this.deps.store.update(
      id,
      {
        memory: text,
        hash: textHash(text),
        updated_at: at,
        embedder: this.deps.embedder.id,
        // What a superseded memory said stays known as what it has been about (supersede/slot-words.ts).
        metadata: opts.supersede ? withSlotWords(metadata ?? before.metadata, before) : metadata,
        ...(kept ? { valid_from: at } : {}),
      },
      vector,
    );
    if (!updated) throw new MemoryNotFoundError(id);
    await this.deps.history.record(id, 'UPDATE', before.memory, text, at);
    return { record: updated, previous: before.memory };
  }

  async delete(id: string): Promise<MemoryRecord> {
    // Its earlier versions go first: nothing it said outlives it.
    const memory = await this.deps.store.get(id);
    if (memory)
      for (const version of await this.deps.store.versions({ user_id: memory.user_id, memory_id: id }))
        await this.deps.store.delete(version.id);
    const removed = await this.deps.store.delete(id);
    if (!removed) throw new MemoryNotFoundError(id);
    await this.deps.history.record(id, 'DELETE', removed.memory, null, this.now().toISOString());
    return removed;
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
