/**
 * The current memories a new statement replaces by evidence in their words
 * (docs/memory-supersede.md#by-evidence), for statements the subject reader finds no earlier
 * statement of the same subject for: among the fact's vector neighbours and the memories sharing its
 * names, its words or its attribute's cue words, those the statement replaces (statement-evidence.ts),
 * most recently valid first.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { attributeCueTerms } from '../search/attribute-cues';
import { queryTerms } from '../search/text-terms';
import type { MemoryFilter, MemoryStore, VectorHit } from '../store/memory-store';
import { replacementEvidence, type AttributeStatement } from './statement-evidence';
import { statementOf } from './statement-of';

/** Lexical candidates read per new statement. */
const WORD_CANDIDATES = 30;

export async function replacedMemories(
  store: MemoryStore,
  scope: MemoryFilter,
  fact: string,
  neighbours: VectorHit[],
): Promise<MemoryRecord[]> {
  const statement = statementOf(fact);
  if (!statement) return [];
  // Its words and its attribute's cue words, as the lexical index keeps them.
  const terms = [...new Set([...queryTerms(fact), ...attributeCueTerms(fact)])];
  const [lexical = []] = terms.length ? await store.searchText(terms, [scope], WORD_CANDIDATES) : [];
  const seen = new Set<string>();
  const replaced: MemoryRecord[] = [];
  for (const record of [...neighbours.map((n) => n.record), ...lexical.map((h) => h.record)]) {
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    const earlier = statementOf(record.memory);
    if (!earlier) continue;
    if (
      replacementEvidence(statement, earlier) ||
      (replacedAValue(record) && (await anEarlierVersionShows(store, scope, statement, record, earlier)))
    )
      replaced.push(record);
  }
  return replaced.sort((a, b) => b.valid_from.localeCompare(a.valid_from));
}

/** A memory holding since a later statement than its first: its value replaced an earlier one. */
const replacedAValue = (r: MemoryRecord): boolean => Date.parse(r.valid_from) > Date.parse(r.created_at);

/**
 * Whether what the memory said before shows the statement sets the same attribute: each of its
 * statements says what it is about ("Got a Fairphone 5, the Pixel 8 screen cracked" after "My phone
 * is a Pixel 8"), measured against the value it holds now.
 */
async function anEarlierVersionShows(
  store: MemoryStore,
  scope: MemoryFilter,
  statement: AttributeStatement,
  record: MemoryRecord,
  now: AttributeStatement,
): Promise<boolean> {
  for (const version of await store.versions({ user_id: scope.user_id, memory_id: record.id })) {
    const said = statementOf(version.memory);
    if (said && replacementEvidence(statement, { ...said, values: now.values, opensWith: now.opensWith }))
      return true;
  }
  return false;
}
