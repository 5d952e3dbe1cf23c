/**
 * The current memories a new statement replaces by evidence in their words
 * (docs/memory-supersede.md#by-evidence), for statements the subject reader finds no earlier
 * statement of the same subject for: among the fact's vector neighbours and the memories sharing its
 * names, its words or its attribute's cue words, those the statement replaces (statement-evidence.ts),
 * most recently valid first; when no word shows one, the memory most alike it in the model's reading
 * (alike-statements.ts), else the one that evokes the most of the same words (evoked-words.ts).
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { attributeCueTerms } from '../search/attribute-cues';
import { queryTerms } from '../search/text-terms';
import type { MemoryFilter, MemoryStore, VectorHit } from '../store/memory-store';
import { aboutWordList } from './statement-about';
import {
  mayReplace,
  replacementEvidence,
  type AttributeStatement,
  type ReplacementEvidence,
} from './statement-evidence';
import { evokedWordsOf, mostEvokedAlike, NOTHING_EVOKED, type Evocation } from './evoked-words';
import { candidateRecords } from './candidate-records';
import { slotRootsOf, slotWordsOf } from './slot-words';
import { statementOf } from './statement-of';
import { shareTheirFrame } from './alike-statements';
import { assertedOf } from './asserted-statements';
import { tellsOfAChange } from './statement-kind';

/** Evidence that a statement replaces another, strongest first. */
const EVIDENCE_STRENGTH: ReplacementEvidence[] = [
  'names the old value',
  'same attribute word',
  'a cue of its attribute',
];

/** Lexical candidates read per new statement. */
const WORD_CANDIDATES = 30;

export async function replacedMemories(
  store: MemoryStore,
  scope: MemoryFilter,
  fact: string,
  neighbours: VectorHit[],
  evoked: Evocation = NOTHING_EVOKED,
  alike: AlikeMemories = NO_ALIKE,
  /** The model read it as asserting a value where its words did not (asserted-statements.ts). */
  asserted = false,
): Promise<MemoryRecord[]> {
  const statement = statementOf(fact, asserted);
  if (!statement) return [];
  // Its words and its attribute's cue words, as the lexical index keeps them.
  const terms = [...new Set([...queryTerms(fact), ...attributeCueTerms(fact)])];
  const candidates = (await candidateRecords(store, scope, terms, neighbours, WORD_CANDIDATES)).flatMap(
    (record) => {
      const earlier = withWhatItWasAbout(statementOf(record.memory, assertedOf(record)), record);
      return earlier && mayReplace(statement, earlier) ? [{ record, earlier }] : [];
    },
  );
  // Evidence short of the words (a cue, likeness, what the two evoke) counts only for a statement
  // that says its value came after another: a plain one may as well be an attribute's first.
  const changeSaid = tellsOfAChange(fact);
  // The strongest evidence first (the old value named beats a word in common), then the most recent.
  const replaced = candidates
    .map(({ record, earlier }) => ({ record, evidence: replacementEvidence(statement, earlier) }))
    .filter(({ evidence }) => evidence !== undefined && (changeSaid || evidence !== 'a cue of its attribute'))
    .sort(
      (a, b) =>
        EVIDENCE_STRENGTH.indexOf(a.evidence!) - EVIDENCE_STRENGTH.indexOf(b.evidence!) ||
        b.record.valid_from.localeCompare(a.record.valid_from),
    )
    .map(({ record }) => record);
  if (replaced.length) return replaced;
  if (!changeSaid) return [];
  // No word shows one: the memory most alike it in the model's reading (alike-statements.ts).
  const mostAlike =
    alike.threshold === undefined || !candidates.length
      ? undefined
      : await alikeReplaced(fact, statement, alike, alike.threshold);
  if (mostAlike) return [mostAlike];
  // Nor is one alike enough: what the two evoke (evoked-words.ts).
  const newer = { about: aboutWordList(fact), evoked: evoked.words };
  const earlier = candidates.map(({ record }) => ({
    record,
    earlier: {
      about: [...new Set([...aboutWordList(record.memory), ...slotWordsOf(record)])],
      evoked: evokedWordsOf(record),
    },
  }));
  const related = await evoked.relatedAround([...newer.about, ...earlier.flatMap((c) => c.earlier.about)]);
  const evokedAlike = mostEvokedAlike(newer, earlier, related);
  return evokedAlike ? [evokedAlike] : [];
}

/** The memories most alike a statement (alike-statements.ts), and the cosine from which they count. */
export interface AlikeMemories {
  /** Found on demand: finding them costs an inference. */
  hits: () => Promise<VectorHit[]>;
  threshold: number | undefined;
  /** The likeness of two statements on the words they do not share (alike-statements.ts). */
  apart: (newer: string, older: string) => Promise<number>;
}

const NO_ALIKE: AlikeMemories = { hits: async () => [], threshold: undefined, apart: async () => 0 };

/**
 * The most alike memory over the threshold whose statement the new one may replace; one that shares
 * the new one's frame must be as alike on the words the two do not share.
 */
async function alikeReplaced(
  fact: string,
  statement: AttributeStatement,
  alike: AlikeMemories,
  threshold: number,
): Promise<MemoryRecord | undefined> {
  for (const { record, similarity } of await alike.hits()) {
    if (similarity < threshold) return undefined;
    const earlier = withWhatItWasAbout(statementOf(record.memory, assertedOf(record)), record);
    if (!earlier || !mayReplace(statement, earlier)) continue;
    const values = [...statement.values, ...earlier.values];
    if (!shareTheirFrame(fact, record.memory, values)) return record;
    return (await alike.apart(fact, record.memory)) >= threshold ? record : undefined;
  }
  return undefined;
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
