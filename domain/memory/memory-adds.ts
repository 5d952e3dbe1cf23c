/**
 * The add pipeline (docs/requirements.md#memories): extracts an add's facts (or takes its text), and
 * per fact answers NONE for a known text or meaning, supersedes an earlier memory of the same
 * attribute (memory-superseding.ts), lets Claude decide among related memories, else stores it
 * (ADD), copying experience/procedural memories to the shared space with autoshare. Adds are
 * serialized per user and replayed by idempotency key; each one's token usage goes to the audit log.
 */
import { randomUUID } from 'node:crypto';
import {
  categoryOf,
  SHARED_CATEGORIES,
  SHARED_USER,
  type MemoryAddResult,
  type MemoryRecord,
  type TokenUsage,
} from '../../shared/memory-model';
import type { AddMemoryRequest } from '../../shared/memory-requests';
import { refuseFutureCreatedAt } from './backfill-time';
import { addUsage, NO_USAGE, type StatedSubject } from './extraction/fact-extractor';
import { readSubject } from './extraction/fact-subject';
import type { MemoryEdits } from './memory-edits';
import type { MemoryServiceDeps } from './memory-service-deps';
import { MemorySuperseding } from './memory-superseding';
import { textHash } from './memory-text';
import type { CurrentVectorsStore } from './store/current-vectors';
import type { MemoryFilter, VectorHit } from './store/memory-store';
import type { UserWrites } from './store/user-writes';
import { callerMetadata, withStatedSubject } from './supersede/stated-subjects';
import { evokedWords, NOTHING_EVOKED, withEvokedWords, type Evocation } from './supersede/evoked-words';
import { statementOf } from './supersede/statement-of';
import { likenessVector } from './supersede/alike-statements';
import { assertionScore, withAsserted } from './supersede/asserted-statements';
import { namedValues } from './supersede/statement-names';

/** A new fact this close to an existing memory is the same memory said again. */
export const DUPLICATE_SIMILARITY = 0.95;

/**
 * Whether every name `fact` gives is in `other` too: "These days it's VetCare for my vet" names
 * what "These days it's The Barber Shop for my barber" does not, however near the two are in meaning.
 */
const namesNothingNew = (fact: string, other: string): boolean => {
  const lower = other.normalize('NFKC').toLowerCase();
  return namedValues(fact).every((v) => lower.includes(v));
};

/** Memories read per statement as its likeliest earlier statements (supersede/alike-statements.ts). */
const ALIKE_CANDIDATES = 5;

/** Neighbours at least this similar are shown to the model to decide update/delete/none. */
const RELATED_SIMILARITY = 0.5;

export type AddResponse = {
  results: MemoryAddResult[];
  token_usage: TokenUsage;
  idempotent_replay?: boolean;
};

type MemoryAddsDeps = Pick<
  MemoryServiceDeps,
  'store' | 'history' | 'embedder' | 'extractor' | 'audit' | 'idempotency' | 'autoshare'
> & {
  now: () => Date;
  /** Per-user writes: an add's duplicate checks see the previous add (docs/fleet.md#memory). */
  serialized: UserWrites;
  /** The store as searches see it: vectors of the current model only. */
  vectorsNow: CurrentVectorsStore;
  edits: MemoryEdits;
};

export class MemoryAdds {
  private readonly superseding: MemorySuperseding;

  constructor(private readonly deps: MemoryAddsDeps) {
    this.superseding = new MemorySuperseding(deps);
  }

  /**
   * Adds memories. `opts.mayShare: false` keeps this add's experience and procedural memories out of
   * the shared space even with autoshare on: a caller that may not write it does not write it through
   * the server either (docs/security.md#memory).
   */
  async add(req: AddMemoryRequest, opts: { mayShare?: boolean } = {}): Promise<AddResponse> {
    refuseFutureCreatedAt(req.created_at, this.deps.now());
    const share = opts.mayShare ?? true;
    return this.deps.serialized(req.user_id, async () => {
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
    let evoked = NOTHING_EVOKED;
    let asserted = false;
    if (req.infer) {
      const read = await this.readFact(fact, vector, scope);
      ({ neighbours, evoked, asserted } = read);
      const found = await this.superseding.supersedeOffline(
        req,
        scope,
        { text: fact, vector, stated, evoked, alike: read.alike, asserted },
        neighbours,
      );
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
        !contradicted.has(nearest.record.id) &&
        namesNothingNew(fact, nearest.record.memory)
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
        metadata: withAsserted(
          withEvokedWords(
            stated ? withStatedSubject(callerMetadata(req.metadata), stated) : callerMetadata(req.metadata),
            evoked.words,
          ),
          asserted,
        ),
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
   * What the supersede step reads of a fact besides its text: its vector neighbours, what it evokes,
   * whether the model reads it as asserting where the words do not, and (on demand) the memories most
   * alike it (docs/memory-supersede.md).
   */
  private async readFact(
    fact: string,
    vector: Float32Array,
    scope: MemoryFilter,
  ): Promise<{
    neighbours: VectorHit[];
    evoked: Evocation;
    asserted: boolean;
    alike: () => Promise<VectorHit[]>;
  }> {
    const { embedder, vectorsNow } = this.deps;
    // The likeness vector costs an inference: made once, when first asked for.
    let likeness: Promise<Float32Array | undefined> | undefined;
    const likenessOfFact = () => (likeness ??= likenessVector(embedder, fact));
    // A statement the words take for a mention or an event may still assert, in the model's reading.
    const read = statementOf(fact);
    // Shaped like one that sets a value (a name, short, no question), were it not a mention or an event.
    const shaped = read ? undefined : statementOf(fact, true);
    const asserted = shaped !== undefined && (await this.assertedByModel(likenessOfFact));
    const statement = asserted ? shaped : read;
    // What it evokes is scored on the embedding worker's thread while this one searches.
    const [neighbours, evoked] = await Promise.all([
      vectorsNow.search(vector, scope, 5),
      statement ? evokedWords(embedder, statement, vector) : NOTHING_EVOKED,
    ]);
    // Asked only when no word links the statement to a memory it may replace (an inference more).
    const alike = async () => {
      const likeVector = await likenessOfFact();
      return likeVector ? vectorsNow.search(likeVector, scope, ALIKE_CANDIDATES) : [];
    };
    return { neighbours, evoked, asserted, alike };
  }

  /**
   * Whether a fact the word reader does not read as setting a value, yet shaped like one that could,
   * asserts one in the model's reading (supersede/asserted-statements.ts).
   */
  private async assertedByModel(likeness: () => Promise<Float32Array | undefined>): Promise<boolean> {
    const from = this.deps.embedder.assertedFrom;
    if (from === undefined) return false;
    const vector = await likeness();
    return vector !== undefined && (await assertionScore(this.deps.embedder, vector)) >= from;
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
      const { record, previous } = await this.deps.edits.updateText(decision.id, decision.text, undefined, {
        at,
        supersede: true,
      });
      return {
        result: { id: record.id, memory: record.memory, event: 'UPDATE', previous_memory: previous },
        usage,
      };
    }
    if (decision.event === 'DELETE') {
      const removed = await this.deps.edits.delete(decision.id);
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
    const at = req.created_at ? new Date(req.created_at).toISOString() : this.deps.now().toISOString();
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
}
