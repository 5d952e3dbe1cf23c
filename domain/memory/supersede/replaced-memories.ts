/**
 * The current memories a new statement replaces by evidence in their words
 * (docs/memory-supersede.md#by-evidence), for statements no sentence shape of the subject reader
 * knows: among the fact's vector neighbours and the memories sharing its names or its words, those
 * the statement replaces (statement-evidence.ts), most recently valid first.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { queryTerms } from '../search/text-terms';
import type { MemoryFilter, MemoryStore, VectorHit } from '../store/memory-store';
import { attributeStatement, replacementEvidence } from './statement-evidence';

/** Lexical candidates read per new statement. */
const WORD_CANDIDATES = 30;

export async function replacedMemories(
  store: MemoryStore,
  scope: MemoryFilter,
  fact: string,
  neighbours: VectorHit[],
): Promise<MemoryRecord[]> {
  const statement = attributeStatement(fact);
  if (!statement) return [];
  const terms = queryTerms([...statement.about, ...statement.values].join(' '));
  const [lexical = []] = terms.length ? await store.searchText(terms, [scope], WORD_CANDIDATES) : [];
  const seen = new Set<string>();
  const replaced: MemoryRecord[] = [];
  for (const record of [...neighbours.map((n) => n.record), ...lexical.map((h) => h.record)]) {
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    const earlier = attributeStatement(record.memory);
    if (earlier && replacementEvidence(statement, earlier)) replaced.push(record);
  }
  return replaced.sort((a, b) => b.valid_from.localeCompare(a.valid_from));
}
