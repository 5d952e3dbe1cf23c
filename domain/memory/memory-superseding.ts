/**
 * The add pipeline's supersede step (docs/memory-supersede.md): finds the earlier memory a new fact
 * states again or replaces (the attribute the model stated, the subject the reader reads, evidence in
 * the words) and, without asking a model, answers NONE or replaces its text keeping the old as history.
 */
import type { MemoryAddResult, MemoryRecord } from '../../shared/memory-model';
import type { AddMemoryRequest } from '../../shared/memory-requests';
import { statedValue, type StatedSubject } from './extraction/fact-extractor';
import { readSubject, type FactSubject } from './extraction/fact-subject';
import type { Embedder } from './embedding/embedder';
import type { MemoryEdits } from './memory-edits';
import type { MemoryServiceDeps } from './memory-service-deps';
import { sameSubjectMemories } from './same-subject';
import type { MemoryFilter, VectorHit } from './store/memory-store';
import { withEvokedWords, type Evocation } from './supersede/evoked-words';
import { replacedMemories } from './supersede/replaced-memories';
import { likenessApart } from './supersede/alike-statements';
import { withAsserted } from './supersede/asserted-statements';
import { sameStatedSubject, statedSubjectOf, withStatedSubject } from './supersede/stated-subjects';

type SupersedingDeps = Pick<MemoryServiceDeps, 'store' | 'extractor' | 'embedder'> & {
  edits: MemoryEdits;
  now: () => Date;
};

/** The evidence beyond the words the supersede step reads with a model (docs/memory-supersede.md). */
export interface SupersedeEvidence {
  /** What statements evoke: the model's word table is provisioned. */
  evoked_words: boolean;
  /** Their likeness: the model has a likeness threshold. */
  likeness: boolean;
}

/** Which evidence beyond the words `embedder` lets the supersede step read. */
export function supersedeEvidenceOf(
  embedder: Pick<Embedder, 'nearestWords' | 'relatedWords' | 'alikeStatements'>,
): SupersedeEvidence {
  return {
    evoked_words: Boolean(embedder.nearestWords && embedder.relatedWords?.()),
    likeness: embedder.alikeStatements !== undefined,
  };
}

/** A fact being added, as the supersede step reads it. */
export interface NewFact {
  text: string;
  /** Its passage vector. */
  vector: Float32Array;
  /** The attribute the model stated of it, if one did. */
  stated?: StatedSubject;
  /** What it evokes (supersede/evoked-words.ts): nothing unless it sets an attribute. */
  evoked: Evocation;
  /**
   * The memories most alike it (supersede/alike-statements.ts), most alike first: none unless it sets
   * an attribute and the model compares statements.
   */
  alike?: () => Promise<VectorHit[]>;
  /** The model read it as asserting a value where its words did not (supersede/asserted-statements.ts). */
  asserted?: boolean;
}

export class MemorySuperseding {
  constructor(private readonly deps: SupersedingDeps) {}

  /**
   * The earlier memory a fact supersedes without asking a model: one of the attribute the model
   * stated (docs/memory-validity.md#with-claude), else, offline, one of the subject the reader reads
   * or one the evidence in the words shows (docs/memory-supersede.md#by-evidence). With Claude,
   * the earlier memories found go to the model with the neighbours instead.
   */
  async supersedeOffline(
    req: AddMemoryRequest,
    scope: MemoryFilter,
    fact: NewFact,
    neighbours: VectorHit[],
  ): Promise<{ superseded?: MemoryAddResult; earlier: MemoryRecord[]; subject?: FactSubject }> {
    const { store, extractor } = this.deps;
    // The model named the attribute: an earlier memory of the same one is superseded without
    // asking it again.
    const superseded = fact.stated && (await this.supersedeStated(req, fact, fact.stated, scope, neighbours));
    const subject = readSubject(fact.text);
    if (superseded) return { superseded, earlier: [], subject };
    const earlier = subject ? await sameSubjectMemories(store, scope, subject, neighbours) : [];
    // No earlier statement of the subject the reader knows: evidence in the words. When one is
    // found, its key is precise.
    const replaced = earlier.length
      ? []
      : await replacedMemories(
          store,
          scope,
          fact.text,
          neighbours,
          fact.evoked,
          {
            hits: fact.alike ?? (async () => []),
            threshold: this.deps.embedder.alikeStatements,
            apart: (newer, older) => likenessApart(this.deps.embedder, newer, older),
          },
          fact.asserted,
        );
    if (extractor.kind !== 'claude') {
      const offline =
        subject && earlier.length
          ? await this.supersede(
              req,
              fact,
              earlier[0],
              readSubject(earlier[0].memory)?.value === subject.value,
            )
          : replaced.length
            ? await this.supersede(req, fact, replaced[0], false)
            : undefined;
      if (offline) return { superseded: offline, earlier, subject };
    }
    return { earlier: [...earlier, ...replaced], subject };
  }

  /**
   * Offline, a fact setting an attribute an earlier memory sets (docs/memory-supersede.md): the same
   * value is already known (NONE); another value replaces the memory's text, the old one kept in
   * history (UPDATE). A backfilled fact older than the memory's last change supersedes nothing.
   */
  private async supersede(
    req: Pick<AddMemoryRequest, 'created_at'>,
    fact: NewFact,
    earlier: MemoryRecord,
    sameValue: boolean,
    metadata?: Record<string, unknown>,
  ): Promise<MemoryAddResult | undefined> {
    if (sameValue) return { id: earlier.id, memory: earlier.memory, event: 'NONE' };
    const at = req.created_at ? new Date(req.created_at).toISOString() : this.deps.now().toISOString();
    if (at < earlier.updated_at) return undefined;
    const { record, previous } = await this.deps.edits.updateText(
      earlier.id,
      fact.text,
      withAsserted(withEvokedWords(metadata ?? earlier.metadata, fact.evoked.words), fact.asserted ?? false),
      { at, vector: fact.vector, supersede: true },
    );
    return { id: record.id, memory: record.memory, event: 'UPDATE', previous_memory: previous };
  }

  /** A fact whose attribute the model named, against the current memory stating the same one, if any. */
  private async supersedeStated(
    req: Pick<AddMemoryRequest, 'created_at'>,
    fact: NewFact,
    stated: StatedSubject,
    scope: MemoryFilter,
    neighbours: VectorHit[],
  ): Promise<MemoryAddResult | undefined> {
    const [earlier] = await sameStatedSubject(this.deps.store, scope, stated, neighbours);
    if (!earlier) return undefined;
    const same = statedValue(statedSubjectOf(earlier)!) === statedValue(stated);
    return this.supersede(req, fact, earlier, same, withStatedSubject(earlier.metadata, stated));
  }
}
