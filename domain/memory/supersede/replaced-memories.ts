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
import { candidateRecords } from './candidate-records';
import { slotRootsOf } from './slot-words';
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
  const replaced = (await candidateRecords(store, scope, terms, neighbours, WORD_CANDIDATES)).filter(
    (record) => {
      const earlier = withWhatItWasAbout(statementOf(record.memory), record);
      return earlier !== undefined && replacementEvidence(statement, earlier) !== undefined;
    },
  );
  return replaced.sort((a, b) => b.valid_from.localeCompare(a.valid_from));
}

/**
 * A memory's statement with what its earlier statements were about (slot-words.ts): "Got a Fairphone
 * 5, the Pixel 8 screen cracked" is about a phone when it replaced "I use a Pixel 8 as my phone".
 */
function withWhatItWasAbout(
  statement: AttributeStatement | undefined,
  record: MemoryRecord,
): AttributeStatement | undefined {
  const roots = slotRootsOf(record);
  if (!statement || !roots.length) return statement;
  return {
    ...statement,
    about: new Set([...statement.about, ...roots]),
    words: new Set([...statement.words, ...roots]),
  };
}
