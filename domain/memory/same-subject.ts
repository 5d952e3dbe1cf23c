/**
 * The live memories that state the same single-valued attribute as a new fact ("I live in Berlin"
 * for "I moved to Lisbon"), newest first (docs/memory-supersede.md). Candidates are the fact's
 * vector neighbours and the lexical matches of the subject's cue words, so a statement with no
 * word or meaning in common with the new one ("my home is in Porto") is still found; each is
 * then read with the same subject reader, so only an exact subject match counts.
 */
import type { MemoryRecord } from '../../shared/memory-model';
import { readSubject, type FactSubject } from './extraction/fact-subject';
import { queryTerms } from './search/text-terms';
import type { MemoryFilter, MemoryStore, VectorHit } from './store/memory-store';
import { candidateRecords } from './supersede/candidate-records';

/** Lexical candidates read per new fact with a subject. */
const CUE_CANDIDATES = 50;

/** Earlier memories under `scope` whose subject key is `subject.key`, most recently updated first. */
export async function sameSubjectMemories(
  store: MemoryStore,
  scope: MemoryFilter,
  subject: FactSubject,
  neighbours: VectorHit[],
): Promise<MemoryRecord[]> {
  const terms = queryTerms(subject.cues.join(' '));
  const same = (await candidateRecords(store, scope, terms, neighbours, CUE_CANDIDATES)).filter(
    (r) => readSubject(r.memory)?.key === subject.key,
  );
  return same.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}
