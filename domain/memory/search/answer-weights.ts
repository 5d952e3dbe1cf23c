/**
 * Which memories can answer a question about what holds now (docs/memory-search.md#now-and-then):
 * a question for a value in the present ("Which gym do I go to?") is answered by a memory that
 * asserts a value, not by one that only mentions a value in passing ("Walked past Ajax on the way
 * home", "I used to love Ajax") nor by one that names nothing the question asks about ("Made pasta
 * for dinner"); and when an answer is about what the question asks ("New gym: Crunch"), one about
 * another thing ("My current account is at ING") yields to it. Those keep a share of their
 * relevance, so they still come when nothing better does.
 * A question about the past ("Where did I live before?") reads earlier versions too, and a memory
 * that replaced an earlier value yields to them. A question about a named time in the past ("Which
 * gym did I go to in March 2025?") is weighed as one about now, over what held then: a value that
 * held at no time of that period yields to those that did.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { slotWordsOf } from '../supersede/slot-words';
import { evokedWordsOf, nearAnyOf } from '../supersede/evoked-words';
import { aboutWordList, contentWords } from '../supersede/statement-about';
import { peopleNamedIn } from '../supersede/statement-names';
import { root } from '../vocabulary/word-roots';
import type { WordsNear } from '../embedding/words-beyond-table';
import { readRecord, type MemoryReading } from './memory-reading';
import type { Candidate } from './hybrid-retrieval';
import { cueRootsOf } from './attribute-cues';
import {
  asksForOneValue,
  asksForOneValueThen,
  periodAskedAbout,
  questionTime,
  questionWithoutWordsOfTime,
  withoutWordsOfAsking,
} from './question-time';
import type { TimeRange } from './time-expressions';

/** The share of its relevance a memory that cannot answer a question about now keeps. */
export const NOT_AN_ANSWER_NOW = 0.5;

/**
 * Whether a memory can answer a question for a value now, whose words of what it asks about are
 * `asked` and which names the people around the speaker in `people`.
 */
function answersNow(memory: MemoryReading, asked: Set<string>, people: Set<string>): boolean {
  if (memory.mention) return false;
  // Another person's attribute answers only a question about that person ("My neighbour signed up
  // with Halifax" is no answer to "Who is our mortgage with?").
  if (memory.otherPerson !== undefined && !people.has(memory.otherPerson)) return false;
  // It names a value, or gives a known attribute's ("I am vegetarian").
  if (memory.named || memory.asserts) return true;
  for (const w of memory.aboutAnyWord) if (asked.has(w)) return true;
  return false;
}

/**
 * The share of its relevance an answer keeps, for a question about now, when it is about another
 * thing than the question (its words of what it is about are none the question asks, nor cues of
 * the attribute it asks about) while another answer is about the same.
 */
export const ABOUT_ANOTHER_THING = 0.1;

/** What a question asks about, as answer weighting reads it. */
interface AskedAbout {
  /** Roots of its words of what it asks about ("gym", "bank"). */
  asked: Set<string>;
  /** The same words as written, lower case: the word table holds whole words. */
  askedWords: string[];
  /** Its word roots, common verbs kept ("Where do I work?"). */
  questionRoots: Set<string>;
  /** Cue roots of the known attributes it asks about. */
  cues: Set<string>;
  /** Whether two words are near in the model's word table (none: only the same word is). */
  related?: WordsNear;
}

/**
 * How a memory relates to what a question asks about: the same thing by its words, only by the words
 * it evokes (the model's association, weaker evidence than what the memory says), another thing, or
 * nothing tells.
 */
type Relation = 'same' | 'evoked' | 'other' | 'unknown';

/**
 * How a memory that answers now relates to what the question asks about: the same thing when it
 * shares a word of it, holds a cue of the attribute it asks about, or evokes a word of it or one
 * near it in the model's word table ("This year Ledger Partners filed my taxes" evokes "tax", near
 * "accountant": docs/memory-search.md#now-and-then); another when the attribute it sets is a known
 * one the question does not ask about ("I work at Initech" for "Which city am I based in?"), or when
 * its words of what it is about, or else the words it evokes, are none of the question's.
 */
function aboutTheQuestion(record: MemoryRecord, memory: MemoryReading, q: AskedAbout): Relation {
  // What its earlier statements were about counts too (supersede/slot-words.ts).
  const beforeWritten = slotWordsOf(record);
  const before = beforeWritten.map(root);
  for (const w of [...memory.about, ...before]) if (q.asked.has(w)) return 'same';
  // A word of one of its names counts too ("My laptop runs Mullvad for a VPN" for "Which VPN …?"),
  // read only when the rest did not answer.
  for (const w of memory.aboutAnyWord) if (q.asked.has(w)) return 'same';
  if (q.cues.size) for (const r of [...memory.content, ...before]) if (q.cues.has(r)) return 'same';
  // Of a statement of a value, a word it is or was about near one the question asks about, in the
  // model's word table ("I boulder at The Arch" for "Which climbing wall do I go to?"; not "…sent me
  // a survey by email" for "What's my laptop …?", which states nothing), or a word it evokes.
  if (
    q.related &&
    memory.asserts &&
    nearAsked([...memory.aboutWritten, ...beforeWritten], q.askedWords, q.related)
  )
    return 'same';
  if (q.related && nearAsked(evokedWordsOf(record), q.askedWords, q.related)) return 'evoked';
  if (memory.knownCues) {
    for (const r of memory.knownCues) if (q.questionRoots.has(r) || q.cues.has(r)) return 'same';
    return 'other';
  }
  if (memory.about.size || before.length) return 'other';
  // No word of it says what it is about ("Upgraded from the Fairphone 5 to a Galaxy S23"): what it
  // evokes does, and none of that is near what the question asks.
  return q.related && evokedWordsOf(record).length ? 'other' : 'unknown';
}

/** Whether one of `words` is one the question asks about, or near one of them. */
function nearAsked(words: string[], askedWords: string[], related: WordsNear): boolean {
  return words.some((w) => nearAnyOf(w, askedWords, related));
}

/**
 * For a question about now, when a memory asserts a value of what the question asks about, the
 * share of that memory's relevance no other memory's passes.
 */
export const ANSWER_FIRST = 0.5;

/** The share of its relevance a memory keeps, for a question about the past, when it replaced an earlier value. */
export const REPLACED_IT_THEN = 0.5;

/**
 * The share of its relevance a memory keeps, for a question about a named time in the past, when
 * the value it sets held at no time of that period.
 */
export const NOT_HELD_THEN = 0.1;

/**
 * Whether a memory's value held at some time of `range`: its validity meets the period. Only a
 * memory that sets a value has a validity that says so (a version of one, or an assertion); a
 * note or an event is left to the time list, which reads when it was said.
 */
function heldIn(range: TimeRange): (c: Candidate, memory: MemoryReading) => boolean {
  const from = range.from ? Date.parse(range.from) : -Infinity;
  const to = range.to ? Date.parse(range.to) : Infinity;
  return (c, memory) => {
    const r = c.record;
    if (!isVersioned(c) && !memory.asserts) return true;
    const validTo = r.valid_to === null ? Infinity : Date.parse(r.valid_to);
    return Date.parse(r.valid_from) < to && validTo > from;
  };
}

/**
 * What a question asks about is read without the words that say when ("in March 2025", "back
 * then") and without a request leading it ("Remind me, …").
 */
const withoutItsTime = (question: string, range?: TimeRange): string =>
  withoutWordsOfAsking(questionWithoutWordsOfTime(range ? question.replace(range.text, ' ') : question));

/**
 * The words of what a question asks about, as written, lower case ("babysitter"): the words whose
 * near words answer weighting asks for (`related`), none when it weighs nothing.
 */
export function wordsAskedAbout(question: string, range?: TimeRange): string[] {
  return questionTime(question) === 'either' ? [] : aboutWordList(withoutItsTime(question, range), []);
}

/**
 * The question's weighting of candidates. About now: non-answers lose relevance, and relevances
 * are taken relative to the best answer. About the past: a memory whose value replaced an earlier
 * one (it holds since a later statement than its first) yields to the earlier versions.
 */
export function answerWeights(
  question: string,
  range?: TimeRange,
  related?: WordsNear,
): <C extends Candidate>(candidates: C[]) => C[] {
  const time = questionTime(question);
  if (time === 'either') return (c) => c;
  // A named period in the past: what held then answers as what holds now answers a question about now.
  const period = periodAskedAbout(question, range);
  const heldThen = period ? heldIn(period) : undefined;
  const oneValue = heldThen ? asksForOneValueThen(question) : asksForOneValue(question);
  const what = withoutItsTime(question, range);
  // Read once: as written (the word table holds whole words, lower case) and as roots.
  const askedWords = aboutWordList(what, []);
  const asked = new Set(askedWords.map(root));
  const questionRoots = contentWords(what, []);
  const people = new Set(peopleNamedIn(what));
  const about: AskedAbout = {
    asked,
    askedWords,
    questionRoots,
    cues: cueRootsOf(questionRoots) ?? new Set<string>(),
    related,
  };
  return <C extends Candidate>(candidates: C[]): C[] => {
    // Validity tells what held then only where the memories recorded a change (a version, or a
    // value that replaced one): otherwise it says no more than when each was said, and no text is read.
    const heldRead = heldThen && candidates.some(isVersioned) ? heldThen : undefined;
    const readings = time === 'now' || heldRead ? candidates.map((c) => readRecord(c.record)) : [];
    const held = heldRead ? candidates.map((c, i) => heldRead(c, readings[i])) : undefined;
    const weights = candidates.map((c, i): number | Relation => {
      if (held) {
        if (!held[i]) return NOT_HELD_THEN;
      } else if (time === 'then') return replacedAnEarlierValue(c) ? REPLACED_IT_THEN : 1;
      if (!answersNow(readings[i], asked, people)) return NOT_AN_ANSWER_NOW;
      // What an answer is about is read for a question for one value that holds now.
      if (!oneValue) return 1;
      const relation = aboutTheQuestion(c.record, readings[i], about);
      return relation === 'unknown' ? 1 : relation;
    });
    // Answers about another thing yield only when some answer is about what the question asks.
    const sameFound = weights.includes('same') || weights.includes('evoked');
    // An assertion whose words say it is about what the question asks ("Got a Christmas card from
    // Mow & Grow" names the lawn, and states nothing).
    const wordsSay = weights.some((w, i) => w === 'same' && readings[i].asserts);
    const weighed = candidates.map((c, i) => {
      const tier = weights[i];
      const w = typeof tier === 'number' ? tier : tier === 'other' && sameFound ? ABOUT_ANOTHER_THING : 1;
      return w === 1 ? c : { ...c, relevance: c.relevance * w };
    });
    // An assertion of a value of what the question asks comes first: nothing else (a mention, a
    // note, an answer of another thing or of unknown subject) passes half its relevance, however
    // close in words or recent (time decay adds at most 0.3 to a relevance weighed 0.7).
    // About now, an answer whose words say so comes before one only its evoked words tie to the
    // question; of a named period, what held then tells them apart already.
    const first = (r: number | Relation) =>
      r === 'same' || (r === 'evoked' && (held !== undefined || !wordsSay));
    let isAsserted = weighed.map((_, i) => first(weights[i]) && readings[i].asserts);
    // Of a named period in the past, with none of the same thing: any value that held then comes
    // before one that held at no time of it.
    if (held && !isAsserted.includes(true))
      isAsserted = weighed.map((_, i) => held[i] && readings[i].asserts && weights[i] !== NOT_AN_ANSWER_NOW);
    const asserted = weighed.filter((_, i) => isAsserted[i]);
    const ceiling = ANSWER_FIRST * asserted.reduce((m, c) => Math.max(m, c.relevance), 0);
    // Scaled, not cut, so that what stays below keeps its order.
    const highest = weighed.reduce((m, c, i) => (isAsserted[i] ? m : Math.max(m, c.relevance)), 0);
    const scale = ceiling > 0 && highest > ceiling ? ceiling / highest : 1;
    const capped =
      scale < 1
        ? weighed.map((c, i) => (isAsserted[i] ? c : { ...c, relevance: c.relevance * scale }))
        : weighed;
    // Relative to the best answer: the memory that answers best is as relevant as can be.
    const best = capped.reduce((m, c) => Math.max(m, c.relevance), 0);
    return capped
      .map((c) => (best > 0 ? { ...c, relevance: c.relevance / best } : c))
      .sort((a, b) => b.relevance - a.relevance);
  };
}

/** A version of a memory's value: an earlier one (it ended) or one that replaced another. */
const isVersioned = (c: Candidate): boolean => c.record.valid_to !== null || replacedAnEarlierValue(c);

/** A current memory holding since a later statement than its first: it replaced an earlier value. */
const replacedAnEarlierValue = (c: Candidate): boolean =>
  c.record.valid_to === null && Date.parse(c.record.valid_from) > Date.parse(c.record.created_at);
