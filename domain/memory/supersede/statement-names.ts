/**
 * The names a short statement gives (its values), whose attribute it says it is (a possessive name,
 * a person around the speaker) and the speaker in it (docs/memory-supersede.md#by-evidence). Pure,
 * for exact unit tests.
 */
import { root } from '../vocabulary/word-roots';
import { isCommonWord } from '../vocabulary/common-words';
import { CLAUSE_OPENERS, COMMON_VERBS, isVerbForm, NOT_ABOUT } from '../vocabulary/word-classes';

const WEEKDAY = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$/;

/** Words a name may start with that are sentence openers, not names ("My", "The", "New"). */
export const OPENERS = new Set([
  ...'i my we our the a an it this that he she they you me his her their your new so well oh ok okay yes no not just also then'.split(
    ' ',
  ),
  // Clause openers of when, why and whether ("Since Aviva put their prices up, …").
  ...CLAUSE_OPENERS,
  ...['once', 'if', 'unless'],
]);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;
/** The speaker's "I", alone or in a contraction ("I'm", "I’ve"): a capital, not a name. */
export const isI = (word: string): boolean => /^I(?:['’](?:m|ve|d|ll))?$/.test(word);
export const NAMED = /^(?:[\p{Lu}\p{Lt}]|\p{N})|[\p{Lu}\p{N}]/u;
/** A capital after a word's first letter: no ordinary word has one ("ShineBright", "eBay", "AXA"). */
const INNER_CAPITAL = /^.[\p{L}\p{N}'’.-]*\p{Lu}/u;

/**
 * Whether a lone first word names something: "Initech is where I work", not "Booked …", "Rent goes
 * …", nor "Home is Toronto for me", where the name comes after and the first word says what it is.
 */
function namesItself(word: string, next: string | undefined, rest: string[]): boolean {
  const lower = word.toLowerCase();
  if (NOT_ABOUT.has(lower) || COMMON_VERBS.has(lower) || /(?:ed|ing|ly)$/.test(lower)) return false;
  return /^(?:is|are|was|were|has|have)$/i.test(next ?? '') && !rest.some((w) => NAMED.test(w) && !isI(w));
}

/** A name in the possessive ("Mia's", "Ana’s"): whose attribute it is, not what it is about. */
const POSSESSOR = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}-]*['’]s(?![\p{L}\p{N}])/gu;

/** The text without its possessors' names. */
export const withoutPossessors = (text: string): string => text.normalize('NFKC').replace(POSSESSOR, ' ');

/** The names a statement says an attribute is of ("Mia's school"), lower-cased. */
export const possessorsOf = (text: string): string[] =>
  [...text.normalize('NFKC').matchAll(POSSESSOR)].map((m) => m[0].slice(0, -2).toLowerCase());

/**
 * Nouns for the people around a speaker outside their household (parents, siblings, the wider
 * family, friends, neighbours, colleagues): a closed class of English, like its pronouns. A
 * statement that opens with one of them ("My neighbour signed up with Nationwide", "My sister still
 * banks with HSBC") gives that person's attribute, not the speaker's. A household's (children,
 * partners, flatmates) are often the speaker's own to keep ("My daughter's school is Oak Lane now",
 * "Our flatmate set up the broadband with Plusnet"), so they are not among them.
 */
const PEOPLE_AROUND = new Set(
  (
    'mum mom mother dad father parent sister brother sibling grandma grandmother granny gran grandpa ' +
    'grandfather grandad granddad grandparent aunt auntie uncle cousin niece nephew in-laws friend mate ' +
    'pal buddy neighbour neighbor colleague coworker co-worker boss classmate teammate'
  )
    .split(' ')
    .map(root),
);

/** The people around the speaker a text names, as roots ("my sister", "the kids"), in the order written. */
export function peopleNamedIn(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}-]+/gu) ?? [];
  return [...new Set(words.map(root).filter((w) => PEOPLE_AROUND.has(w)))];
}

/**
 * Whose attribute a statement gives when it is one of the people around the speaker: the one its
 * subject names ("My neighbour signed up with Nationwide last week", "My sister's bank is …"), none
 * when the subject is the speaker's own ("My babysitter is Zoe") or takes the speaker in ("My sister
 * and I …").
 */
export function otherPersonOf(text: string): string | undefined {
  const subject = /^(?:my|our)\s+([\p{L}-]+)(?![\p{L}-])(?:['’]s?)?(?!\s+(?:and|&)\s+(?:i|me|we)\b)/iu.exec(
    text.normalize('NFKC').trim(),
  );
  const person = subject && root(subject[1].toLowerCase());
  return person && PEOPLE_AROUND.has(person) ? person : undefined;
}

/** Word tokens ("Dr", "Ana's", "9:30"), as written. */
export function tokens(text: string): string[] {
  return text.normalize('NFKC').match(WORD) ?? [];
}

/**
 * The names a statement gives: runs of words holding a capital or a digit ("Umbrella Labs", "iPhone
 * 15", "Dr Chen"), lower-cased. The first word counts only as part of a longer run, since every
 * sentence starts with a capital; a lone "I" and openers never count.
 */
export function namedValues(text: string): string[] {
  const normalized = text.normalize('NFKC');
  const found = [...normalized.matchAll(WORD)];
  const words = found.map((m) => m[0]);
  // Punctuation between two words ends a name ("Dropped AXA, Zurich were cheaper": two names), but
  // an ampersand joins one ("Abel & Cole", "Marks & Spencer").
  const between = found.map((m, i) =>
    i === 0 ? '' : normalized.slice(found[i - 1].index! + found[i - 1][0].length, m.index),
  );
  const ampersand = between.map((b) => /^\s*&\s*$/u.test(b));
  const apart = between.map((b, i) => /[^\s]/u.test(b) && !ampersand[i]);
  const speakerIn = FIRST_PERSON.test(normalized);
  const values: string[] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length)
      values.push(
        run
          .join('')
          .toLowerCase()
          .replace(/[.'’]+$/u, ''),
      );
    run = [];
  };
  words.forEach((w, i) => {
    // A sentence opening with a verb ("Cancelled Iron Temple …") starts with no name.
    const opensWithVerb = i === 0 && isVerbForm(w.toLowerCase());
    const named =
      NAMED.test(w) && !isI(w) && !opensWithVerb && !(run.length === 0 && OPENERS.has(w.toLowerCase()));
    // A capital first word is a name when more of one follows, when it is no ordinary word in a
    // statement of the speaker's ("Priya took over as our babysitter"; "Ana lives in Berlin" tells
    // whose attribute it is, not its value), or when the sentence says what it is.
    // A capital inside a word is a name's ("ShineBright does the windows now", "NordVPN is …").
    const firstAlone =
      i === 0 &&
      !INNER_CAPITAL.test(w) &&
      !(words[1] && NAMED.test(words[1])) &&
      !(speakerIn && !isCommonWord(w)) &&
      !namesItself(w, words[1], words.slice(2));
    if (apart[i]) close();
    // As written around an ampersand ("Abel & Cole", "M&S"), so the text still holds the name.
    if (named && !firstAlone)
      run.push(run.length ? `${ampersand[i] ? between[i].replace(/\s+/gu, ' ') : ' '}${w}` : w);
    else close();
    // A full stop ends a sentence, and the name in it, unless it ends a short abbreviation ("Dr.",
    // "St."): "Switched over from Mindful Chef. Gousto is our meal kit" gives two names.
    if (w.endsWith('.') && /^\p{L}{4}$/u.test(w.slice(-5, -1))) close();
  });
  close();
  // A number alone is a quantity or a label of the thing spoken of ("release train 2"), not a name;
  // a day of the week says when ("on Wednesdays").
  return [...new Set(values.filter((v) => v && !/^[\d.,:/\s-]+$/.test(v) && !WEEKDAY.test(v)))];
}

/**
 * `text` (lower case) without its names (lower case), each taken out only as whole words: a short
 * name is no piece of another word ("Co" of "Hart and Co" leaves "accountant" whole).
 */
export function withoutNames(text: string, values: string[]): string {
  let rest = text;
  // By position, not a regular expression built per name: a search reads every candidate's names.
  for (const v of values) {
    if (!v) continue;
    let kept = '';
    let from = 0;
    for (let at = rest.indexOf(v); at >= 0; at = rest.indexOf(v, at + 1)) {
      if (
        at < from ||
        isWordCharacter(codePointBefore(rest, at)) ||
        isWordCharacter(rest.codePointAt(at + v.length))
      )
        continue;
      kept += `${rest.slice(from, at)} `;
      from = at + v.length;
    }
    rest = kept + rest.slice(from);
  }
  return rest;
}

const isWordCharacter = (codePoint: number | undefined): boolean =>
  codePoint !== undefined && /[\p{L}\p{N}]/u.test(String.fromCodePoint(codePoint));

/** The code point that ends just before `at` (a surrogate pair read whole). */
function codePointBefore(text: string, at: number): number | undefined {
  if (at <= 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const pair = text.codePointAt(at - 2);
    if (pair !== undefined && pair > 0xffff) return pair;
  }
  return low;
}

/** The speaker, in any person of the first: I, me, my, we, our… */
export const FIRST_PERSON = /\b(?:i|me|my|mine|myself|we|us|our|ours)\b/i;
