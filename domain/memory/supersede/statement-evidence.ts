/**
 * What a short statement shows about the attribute it sets, read from its words rather than from a
 * table of sentence shapes (docs/memory-supersede.md#by-evidence), and whether a newer statement
 * replaces an older one: from the names it gives (statement-names.ts), whether it asserts them
 * (statement-kind.ts) and what it is about (statement-about.ts: "gym", "bank", "landlord"). Pure,
 * for exact unit tests.
 */
import { isCommonWord } from '../vocabulary/common-words';
import { isVerbForm, saysNothingOfAnAttribute } from '../vocabulary/word-classes';
import { aboutWords, contentWords } from './statement-about';
import { mentionsOnly, tellsOfAnEvent } from './statement-kind';
import {
  FIRST_PERSON,
  isI,
  NAMED,
  namedValues,
  OPENERS,
  otherPersonOf,
  possessorsOf,
  tokens,
} from './statement-names';

/** Statements longer than this are accounts, not the statement of one attribute. */
export const MAX_STATEMENT_WORDS = 25;

/**
 * A time at which something happens: a day, a clock time, a date ("on Monday", "tomorrow at 3pm",
 * "on 4 May", "next week").
 */
const WHEN =
  /(?<!\bevery\s)\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tonight|tomorrow|yesterday|(?:next|last|this) (?:week|month|year|weekend)|\d{1,2}(?::\d{2})? ?(?:am|pm)|\d{1,2}:\d{2}|\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2}(?:st|nd|rd|th)?)\b/i;

/** A day's name right after the opening determiner: which kind of thing ("the Sunday paper"). */
const KIND_OF_DAY = /^(\p{L}+)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/iu;

/** A sentence whose subject is a thing: it opens with a determiner. */
const THING_FIRST = /^(?:the|a|an|this|that|these|those|each|every|some|its|his|her|their)\b/i;

/** A statement read for its attribute: short, asserting at least one named value. */
export interface AttributeStatement {
  values: string[];
  about: Set<string>;
  /** Every word of its main clause but names and function words, as roots, common verbs kept ("work" in "Initech is where I work"). */
  words: Set<string>;
  /** The names it says the attribute is of ("Mia's school"). */
  possessors?: string[];
  /** The person around the speaker whose attribute it gives ("My neighbour signed up with …"), as a root. */
  otherPerson?: string;
  /** The name the statement opens with, when it opens with one ("Ajax won …"): what it tells of. */
  opensWith?: string;
  /**
   * The roots of the cue words of the attribute the subject reader read in it (extraction/fact-subject.ts),
   * when it read one: "I work at Initech" is the employer's, and its cues say so ("employer", "job").
   */
  cues?: Set<string>;
  /** Whether the subject reader read the attribute (then its key, not evidence, matches it to another read one). */
  readBySubject?: boolean;
}

/** The statement as one that sets an attribute, or undefined (long, a question, a mention, no name). */
export function attributeStatement(text: string, asserted = false): AttributeStatement | undefined {
  const trimmed = text.trim();
  const values = valuesSet(trimmed, asserted);
  if (!values) return undefined;
  const opening = trimmed.normalize('NFKC').toLowerCase();
  const opensWith = values.find((v) => opening.startsWith(v));
  const person = personOpening(trimmed, values);
  const names = person ? [...values, person] : values;
  const otherPerson = otherPersonOf(trimmed);
  const about = aboutWords(trimmed, names);
  // Whose attribute it is ("My neighbour signed up with …") is not what it is about.
  if (otherPerson) about.delete(otherPerson);
  return {
    values,
    about,
    words: contentWords(trimmed, names),
    possessors: [...possessorsOf(trimmed), ...(person ? [person] : [])],
    ...(opensWith ? { opensWith } : {}),
    ...withOtherPerson(otherPerson),
  };
}

/** What a caller has read of a text already: whether it only mentions, tells of an event (read when asked), the values it names. */
export interface ReadOfText {
  mention?: boolean;
  event?: () => boolean;
  values?: string[];
}

/**
 * Whether {@link attributeStatement} reads the text as one that sets an attribute, without reading
 * what it is about (a search asks this of every candidate).
 */
export function setsAnAttribute(text: string, read: ReadOfText = {}): boolean {
  const trimmed = text.trim();
  // What was read of the text holds for the trimmed text only when they are the same.
  return valuesSet(trimmed, false, trimmed === text ? read : {}) !== undefined;
}

/**
 * The values a trimmed statement names when it can set an attribute, undefined when it cannot: empty,
 * a question, long, a mention or an event (unless the model read it as an assertion), when a thing
 * happens, or naming nothing.
 */
function valuesSet(trimmed: string, asserted: boolean, read: ReadOfText = {}): string[] | undefined {
  if (!trimmed || /\?\s*$/.test(trimmed) || tokens(trimmed).length > MAX_STATEMENT_WORDS) return undefined;
  // Read as an assertion by the model (asserted-statements.ts): its words are not asked again.
  if (!asserted && ((read.mention ?? mentionsOnly(trimmed)) || (read.event?.() ?? tellsOfAnEvent(trimmed))))
    return undefined;
  // "The meeting with Acme is on Monday": when a thing happens, not one of the speaker's own
  // attributes, unless the speaker is in it ("The flat I rent is …"). A thing with no time of its
  // own is the speaker's ("The cat is registered at Paws Clinic now"), and so is a day that says
  // which kind of thing ("The Sunday roast comes from Field to Fork").
  if (
    THING_FIRST.test(trimmed) &&
    !FIRST_PERSON.test(trimmed) &&
    WHEN.test(trimmed.replace(KIND_OF_DAY, '$1'))
  )
    return undefined;
  const values = read.values ?? namedValues(trimmed);
  return values.length ? values : undefined;
}

const withOtherPerson = (person: string | undefined) => (person ? { otherPerson: person } : {});

/**
 * The person a statement without the speaker opens with, by a name that is no ordinary word and no
 * value of it ("Mia does maths with Anna Kowalczyk now", "Leo started at Tiny Steps"): whose
 * attribute it gives, as "Mia's" would say, lower-cased.
 */
function personOpening(text: string, values: string[]): string | undefined {
  const [first] = tokens(text);
  if (!first || !NAMED.test(first) || isI(first) || /['’]s$/u.test(first)) return undefined;
  const lower = first.toLowerCase();
  if (OPENERS.has(lower) || saysNothingOfAnAttribute(lower) || isVerbForm(lower)) return undefined;
  if (values.some((v) => v === lower || v.startsWith(`${lower} `))) return undefined;
  return isCommonWord(first) ? undefined : lower;
}

/**
 * Two statements with a person one of them gives as whose attribute it is ("Leo started at Tiny
 * Steps") read so in the other too, where the same name stood among its values ("We drop Leo at
 * Bright Horizons"): a person is not a value either replaces.
 */
function withPeopleApart(
  newer: AttributeStatement,
  older: AttributeStatement,
): [AttributeStatement, AttributeStatement] {
  const apart = (statement: AttributeStatement, people: string[] | undefined): AttributeStatement => {
    const moved = statement.values.filter((v) => people?.includes(v));
    if (!moved.length) return statement;
    return {
      ...statement,
      values: statement.values.filter((v) => !moved.includes(v)),
      possessors: [...new Set([...(statement.possessors ?? []), ...moved])],
    };
  };
  return [apart(newer, older.possessors), apart(older, newer.possessors)];
}

/**
 * Whether `newer` could replace what `older` asserted, whatever it is about: it gives a value the
 * older did not, and not of another person ("Ben's school" never replaces "Ana's school", nor "My
 * neighbour signed up with Halifax" the speaker's "Our mortgage is with Skipton").
 */
export function mayReplace(newer: AttributeStatement, older: AttributeStatement): boolean {
  return mayReplaceApart(...withPeopleApart(newer, older));
}

/** `mayReplace` for two statements whose people are read apart already. */
function mayReplaceApart(newer: AttributeStatement, older: AttributeStatement): boolean {
  if (!newer.values.some((v) => !older.values.includes(v))) return false;
  // A neighbour's choice is not the speaker's, nor the speaker's the neighbour's.
  if (newer.otherPerson !== older.otherPerson) return false;
  return !(
    newer.possessors?.length &&
    older.possessors?.length &&
    !newer.possessors.some((p) => older.possessors!.includes(p))
  );
}

/** Whether the words of two statements say they are about other things: each has some, none in common. */
export function aboutOtherThings(
  a: Pick<AttributeStatement, 'about'>,
  b: Pick<AttributeStatement, 'about'>,
): boolean {
  return a.about.size > 0 && b.about.size > 0 && ![...a.about].some((w) => b.about.has(w));
}

/** Why a newer statement replaces an older one's value, or undefined when nothing shows it does. */
export type ReplacementEvidence = 'names the old value' | 'same attribute word' | 'a cue of its attribute';

/**
 * Whether `newer` replaces what `older` asserted: both set an attribute, the newer gives a value the
 * older did not, and either it names every value of the older one too ("Sold the Mazda 3 and bought
 * a VW Golf" after "My car is a Mazda 3") or what one is about the other is about too ("New gym:
 * Crunch" after "My gym is Iron Temple").
 */
export function replacementEvidence(
  newerRead: AttributeStatement,
  olderRead: AttributeStatement,
): ReplacementEvidence | undefined {
  const [newer, older] = withPeopleApart(newerRead, olderRead);
  if (!mayReplaceApart(newer, older)) return undefined;
  // Naming the old value counts unless the old value is what the statement tells of ("Ajax won
  // against PSV" says nothing of the club one supports).
  const oldIsSubject = newer.opensWith !== undefined && older.values.includes(newer.opensWith);
  if (!oldIsSubject && older.values.every((v) => newer.values.includes(v))) return 'names the old value';
  // Naming one of its values counts too, unless the two say they are about other things ("Work gave
  // me a Framework 13 to replace the MacBook Air" after "Replaced the Dell XPS 13 with a MacBook
  // Air"; not "My doctor is Dr Lee at Smile Clinic" after "My dentist is Dr Chen at Smile Clinic").
  if (!oldIsSubject && !aboutOtherThings(newer, older) && older.values.some((v) => newer.values.includes(v)))
    return 'names the old value';
  // What one is about, the other is about too ("gym" / "gym"; "home" / "home city"), not only a
  // word in common ("dog's name" / "cat's name").
  const [fewer, more] =
    newer.about.size <= older.about.size ? [newer.about, older.about] : [older.about, newer.about];
  if (fewer.size && [...fewer].every((w) => more.has(w))) return 'same attribute word';
  // One is a known attribute's statement and the other holds one of its cue words ("My employer is
  // Umbrella Labs now" after "Initech is where I work"). When the reader read both, their keys decide.
  if (newer.readBySubject && older.readBySubject) return undefined;
  // A word both hold is the frame they share ("Turns out … works better as my …"), not a cue.
  for (const [known, other] of [
    [newer, older],
    [older, newer],
  ])
    if (known.cues && [...other.words].some((w) => known.cues!.has(w) && !known.words.has(w)))
      return 'a cue of its attribute';
  return undefined;
}
