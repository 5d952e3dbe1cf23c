/**
 * The attribute a model read in a fact, kept with the memory (docs/memory-validity.md#with-claude):
 * stored in its metadata under `plat_subject`, so a later fact stating the same holder's same
 * attribute finds it and supersedes it without another model call.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { statedSubjectKey, type StatedSubject } from '../extraction/fact-extractor';
import { queryTerms } from '../search/text-terms';
import type { MemoryFilter, MemoryStore, VectorHit } from '../store/memory-store';
import { candidateRecords } from './candidate-records';
import { ABOUT_METADATA_KEY } from './slot-words';
import { EVOKED_METADATA_KEY } from './evoked-words';
import { ASSERTED_METADATA_KEY } from './asserted-statements';

/** The metadata key a memory's stated attribute is kept under. */
export const SUBJECT_METADATA_KEY = 'plat_subject';

/** Lexical candidates read per fact with a stated attribute. */
const WORD_CANDIDATES = 50;

/** The attribute a memory states, when a model read one when it was added. */
export function statedSubjectOf(record: Pick<MemoryRecord, 'metadata'>): StatedSubject | undefined {
  const s = record.metadata[SUBJECT_METADATA_KEY];
  if (!s || typeof s !== 'object') return undefined;
  const { holder, attribute, value } = s as Record<string, unknown>;
  return typeof holder === 'string' && typeof attribute === 'string' && typeof value === 'string'
    ? { holder, attribute, value }
    : undefined;
}

/** Metadata keys only the memory service writes: a model's reading, what a memory has been about and what it evokes. */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
  SUBJECT_METADATA_KEY,
  ABOUT_METADATA_KEY,
  EVOKED_METADATA_KEY,
  ASSERTED_METADATA_KEY,
]);

/**
 * A caller's metadata without the reserved keys: only the service sets them, so no caller can make
 * their text supersede a memory by claiming its attribute.
 */
export function callerMetadata(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!metadata || !Object.keys(metadata).some((key) => RESERVED_KEYS.has(key))) return metadata ?? {};
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !RESERVED_KEYS.has(key)));
}

/** Metadata carrying the stated attribute beside what the caller gave. */
export const withStatedSubject = (metadata: Record<string, unknown>, subject: StatedSubject) => ({
  ...metadata,
  [SUBJECT_METADATA_KEY]: subject,
});

/**
 * Current memories under `scope` stating the same holder's same attribute, most recently valid
 * first: among the fact's vector neighbours and the memories holding the holder's and attribute's words.
 */
export async function sameStatedSubject(
  store: MemoryStore,
  scope: MemoryFilter,
  subject: StatedSubject,
  neighbours: VectorHit[],
): Promise<MemoryRecord[]> {
  const key = statedSubjectKey(subject);
  const terms = queryTerms(`${subject.holder} ${subject.attribute}`);
  const stated = (await candidateRecords(store, scope, terms, neighbours, WORD_CANDIDATES)).filter((r) => {
    const subjectOf = statedSubjectOf(r);
    return subjectOf !== undefined && statedSubjectKey(subjectOf) === key;
  });
  return stated.sort((a, b) => b.valid_from.localeCompare(a.valid_from));
}
