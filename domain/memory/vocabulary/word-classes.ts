/**
 * Words that say nothing of the attribute a statement sets (docs/memory-supersede.md#by-evidence):
 * function words, words of time, count and greeting, the most common English verbs and the verbs of
 * change, and the clause openers of when and why. Pure, for exact unit tests.
 */
import { STOP_WORDS } from '../search/text-terms';
import { root } from './word-roots';

/** The one-word openers of a clause saying when or why, not what ("… since the move", "… because of work"). */
export const CLAUSE_OPENERS = [
  'since',
  'because',
  'after',
  'before',
  'when',
  'while',
  'until',
  'although',
  'though',
] as const;
/** Openers of more than one word. */
const PHRASE_OPENERS = ['as soon as', 'now that'];

/** A clause of when or why to the end of a sentence. */
export const SUBORDINATE = new RegExp(
  `\\b(?:${[...CLAUSE_OPENERS, ...PHRASE_OPENERS].join('|')})\\b.*$`,
  'u',
);

/**
 * Such a clause opening a sentence, up to the comma that ends it: "Since Aviva put their prices up,
 * the insurer is Direct Line" tells why, and its main clause what. "Once" opens one only there ("once
 * a month" after a verb says how often).
 */
const FRONTED_SUBORDINATE = new RegExp(
  `^\\s*(?:${[...CLAUSE_OPENERS, 'once', ...PHRASE_OPENERS].join('|')})\\b[^,;:]*[,;:]\\s*`,
  'u',
);

/** A lower-case sentence without a clause of when or why that opens it, up to its comma. */
export const withoutFrontedClause = (text: string): string => text.replace(FRONTED_SUBORDINATE, '');

/** The main clause of a lower-case sentence: without its clauses of when or why, before or after it. */
export const mainClause = (text: string): string => withoutFrontedClause(text).replace(SUBORDINATE, '');

/** Function words and words of time or change: what a statement is about is none of them. */
export const NOT_ABOUT = new Set([
  ...STOP_WORDS,
  ...(
    'us one ones new fresh old current currently latest previous former since ago today yesterday tomorrow ' +
    'week weeks month months year years day days season time times last next recently lately finally ' +
    'already still anymore soon instead first second spring summer autumn fall winter january february ' +
    'march april may june july august september october november december monday tuesday wednesday ' +
    'thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays ' +
    'weekday weekdays weekend weekends morning mornings evening evenings night nights ' +
    'nowadays presently ' +
    'hello hi hey goodbye bye farewell welcome thanks every each other another along ' +
    'never always often sometimes usually rarely'
  ).split(' '),
]);

/**
 * How many or how often ("three days a week", "twice a month"): nothing a statement is about, though
 * a name may be one of them ("Three is my mobile network").
 */
const COUNTS = new Set(
  'two three four five six seven eight nine ten eleven twelve twice dozen half several couple'.split(' '),
);

/**
 * The most common English verbs (and their usual forms): shared by statements about anything, so a
 * shared one says nothing of a shared attribute. Attributes are named by nouns and rarer verbs.
 */
export const COMMON_VERBS = new Set(
  (
    'go goes going went gone get gets getting got gotten make makes making made take takes taking took ' +
    'taken come comes coming came see sees seeing saw seen know knows knew known think thinks thought ' +
    'look looks looked looking want wants wanted give gives gave given use uses used using find finds ' +
    'found tell tells told ask asks asked work works worked working seem feel feels felt try tries tried ' +
    'leave leaves left call calls called need needs needed keep keeps kept let put puts mean means meant ' +
    'become becomes became begin began begun start starts started show showed shown hear heard play ' +
    'played run runs ran move moves moved believe brought happen happened ' +
    'write wrote written sit sat stand stood lose lost pay pays paid meet met include set learn learned ' +
    'change changed lead understand watch watched follow followed stop stopped create speak spoke read ' +
    'spend spent grow grew open opened walk walked win won offer remember love loved consider appear buy ' +
    'buys bought wait waited serve die send sent expect build built stay stayed fall fell cut reach kill ' +
    'remain suggest raise pass sell sells sold require report decide pull switch switched join joined ' +
    'like liked finish finished help helped turn turned hold held bring say says said do does did done ' +
    'end ends ended opt opted'
  ).split(' '),
);

/** A common verb, or a word in a verb's past or -ing form ("cancelled", "joining"). */
export const isVerbForm = (lower: string): boolean =>
  COMMON_VERBS.has(lower) || (lower.length >= 5 && /\p{L}(?:ed|ing)$/u.test(lower));

/**
 * Verbs of a change of what one has, uses or belongs to, and the words of leaving ("Said goodbye to
 * Halifax"), as roots (vocabulary/word-roots.ts): a statement in the past holding one tells of a new value ("Switched banks to HSBC", "Dropped AXA,
 * Zurich were cheaper"), one without tells of an event ("Read a review of Octopus", "Jo recommended
 * Aviva to a friend").
 */
export const CHANGE_VERBS = new Set(
  (
    'switch change move relocate replace swap drop cancel quit leave left join start began begin become ' +
    'became get got buy bought sell sold upgrade downgrade port renew sign transfer went go open close ' +
    'hire fire chose choose pick settle adopt enrol enroll register subscribe unsubscribe took take trade ' +
    'exchange convert retire graduate marry married divorce rent lease gave give stop ditch dump opt ' +
    'goodbye farewell'
  )
    .split(' ')
    .map(root),
);

/** Verbs of change that are also nouns of what one has ("the rent goes to …", "a car lease"). */
const NOUNS_TOO = new Set(['rent', 'lease', 'trade'].map(root));

let commonRoots: Set<string> | undefined;

/**
 * Whether a word (lower case) is a function word, a word of time, or in any form a common verb or a
 * verb of change: those say nothing of what a statement is about ("helps", "mornings", "Dropped").
 */
export function saysNothingOfAnAttribute(word: string): boolean {
  if (NOT_ABOUT.has(word) || COUNTS.has(word) || COMMON_VERBS.has(word)) return true;
  const wordRoot = root(word);
  if (CHANGE_VERBS.has(wordRoot) && !NOUNS_TOO.has(wordRoot)) return true;
  // A common verb's -ing form is often a noun of its own ("running club", "meeting").
  return !/ing$/.test(word) && commonVerbRoots().has(wordRoot);
}

/** Common verbs, as roots; function and time words count as written ("presently" is not "present"). */
export function commonVerbRoots(): Set<string> {
  return (commonRoots ??= new Set([...COMMON_VERBS].map(root)));
}
