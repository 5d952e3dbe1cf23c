/**
 * What a short statement shows about the attribute it sets, read from its words rather than from a
 * table of sentence shapes (docs/memory-supersede.md#by-evidence): the names it gives (the values),
 * whether it asserts them or only mentions them, and the words left once names, function words and
 * common verbs are gone (what it is about: "gym", "bank", "landlord"). Pure, for exact unit tests.
 */
import { STOP_WORDS } from '../search/text-terms';
import { root } from '../vocabulary/word-roots';
import { isCommonWord } from '../vocabulary/common-words';

/** Statements longer than this are accounts, not the statement of one attribute. */
export const MAX_STATEMENT_WORDS = 25;

/**
 * Words that speak of a value without asserting it holds: talk, sight, memory, wishes, doubt, the
 * past. "Talked about Ajax with Jo", "I used to love Ajax", "I might move to Porto".
 */
const MENTION =
  /\b(?:used to|talk(?:ed|ing|s)? (?:about|of|with)|chat(?:ted|ting)? about|saw|seen|walk(?:ed|ing)? (?:past|by)|pass(?:ed|ing)? by|advert|ad for|heard|hear about|read about|remember(?:ed)?|remind(?:ed|s)?|miss(?:ed|ing)?|wish(?:ed)?|hope|might|maybe|perhaps|could|would|should|thinking (?:of|about)|think(?:ing)? about|consider(?:ed|ing)?|wonder(?:ed|ing)?|dream(?:ed|t)? (?:of|about)|if|whether|unless|never|not|no longer|don't|doesn't|didn't|isn't|wasn't|won't)\b/i;

/** Words that open a clause saying when or why, not what ("… since the move", "… because of work"). */
const SUBORDINATE = /\b(?:since|because|after|before|when|while|until|although|though|as soon as)\b.*$/u;

/** Function words and words of time or change: what a statement is about is none of them. */
const NOT_ABOUT = new Set([
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
const COMMON_VERBS = new Set(
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

const WEEKDAY = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$/;

/** Words a name may start with that are sentence openers, not names ("My", "The", "New"). */
const OPENERS = new Set(
  'i my we our the a an it this that he she they you me his her their your new so well oh ok okay yes no not just also then'.split(
    ' ',
  ),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;
/** The speaker's "I", alone or in a contraction ("I'm", "I’ve"): a capital, not a name. */
const isI = (word: string): boolean => /^I(?:['’](?:m|ve|d|ll))?$/.test(word);
const NAMED = /^(?:[\p{Lu}\p{Lt}]|\p{N})|[\p{Lu}\p{N}]/u;

/**
 * Whether a lone first word names something: "Initech is where I work", not "Booked …", "Rent goes
 * …", nor "Home is Toronto for me", where the name comes after and the first word says what it is.
 */
function namesItself(word: string, next: string | undefined, rest: string[]): boolean {
  const lower = word.toLowerCase();
  if (NOT_ABOUT.has(lower) || COMMON_VERBS.has(lower) || /(?:ed|ing|ly)$/.test(lower)) return false;
  return /^(?:is|are|was|were|has|have)$/i.test(next ?? '') && !rest.some((w) => NAMED.test(w) && !isI(w));
}

/** A common verb, or a word in a verb's past or -ing form ("cancelled", "joining"). */
const isVerbForm = (lower: string): boolean =>
  COMMON_VERBS.has(lower) || (lower.length >= 5 && /\p{L}(?:ed|ing)$/u.test(lower));

/** A name in the possessive ("Mia's", "Ana’s"): whose attribute it is, not what it is about. */
const POSSESSOR = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}-]*['’]s(?![\p{L}\p{N}])/gu;

/** The text without its possessors' names. */
const withoutPossessors = (text: string): string => text.normalize('NFKC').replace(POSSESSOR, ' ');

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
  // Punctuation between two words ends a name ("Dropped AXA, Zurich were cheaper": two names).
  const apart = found.map(
    (m, i) => i > 0 && /[^\s]/u.test(normalized.slice(found[i - 1].index! + found[i - 1][0].length, m.index)),
  );
  const speakerIn = FIRST_PERSON.test(normalized);
  const values: string[] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length)
      values.push(
        run
          .join(' ')
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
    const firstAlone =
      i === 0 &&
      !(words[1] && NAMED.test(words[1])) &&
      !(speakerIn && !isCommonWord(w)) &&
      !namesItself(w, words[1], words.slice(2));
    if (apart[i]) close();
    if (named && !firstAlone) run.push(w);
    else close();
  });
  close();
  // A number alone is a quantity or a label of the thing spoken of ("release train 2"), not a name;
  // a day of the week says when ("on Wednesdays").
  return [...new Set(values.filter((v) => v && !/^[\d.,:/\s-]+$/.test(v) && !WEEKDAY.test(v)))];
}

/**
 * A name set against another ("… goes to Barlow Garage, not Mike Motors"): the "not" denies the
 * other name, not the statement, which asserts the first.
 */
const CONTRASTED = /,\s*not\s+(?=[\p{Lu}\p{N}])/u;

/**
 * A sentence whose subject is anybody but the speaker, by an indefinite pronoun ("Someone at work
 * swears Ryanair is overrated", "Everyone says Lidl is cheaper"), and in which the speaker says
 * nothing of their own: what others say or like.
 */
const OTHERS_SAY = /^(?:someone|somebody|everyone|everybody|anyone|anybody|nobody|no one|people)\b/i;

/**
 * A denial of a name in a clause of its own, before a colon or semicolon: it does not reach the
 * clause after it, which asserts as the first name of ", not …" does ("Not Ryanair any more:
 * Lufthansa is my airline", as "Lufthansa is my airline, not Ryanair").
 */
const DENIED_FIRST = /^(?:not|no more|no longer)\s+[^:;]*[:;]\s+(?=\S)/i;

/** Whether a statement speaks of a value without asserting it holds (talk, sight, memory, doubt). */
export function mentionsOnly(text: string): boolean {
  const normalized = text.normalize('NFKC').replace(/[’]/g, "'");
  const trimmed = normalized.trim();
  // Unless the speaker speaks in it too ("Someone nicked the Brompton, so I got a Trek FX").
  if (OTHERS_SAY.test(trimmed) && !FIRST_PERSON.test(trimmed)) return true;
  const denied = DENIED_FIRST.exec(trimmed);
  if (denied) return mentionedIn(trimmed.slice(denied[0].length));
  // A first clause that asserts a name is not undone by what a later one mentions or denies
  // ("Pipe Dreams sorts out our leaks now; Aqua Pro never called back").
  const first = FIRST_CLAUSE.exec(trimmed)?.[1];
  if (first && !DENIAL_OPENS.test(first) && !mentionedIn(first) && namedValues(first).length) return false;
  return mentionedIn(trimmed);
}

/** The first of clauses a semicolon sets apart. */
const FIRST_CLAUSE = /^([^;]+);\s*\S/;
/** A clause opening with a denial ("No Netflix for me; …"). */
const DENIAL_OPENS = /^(?:no|not|never|nor)\b/i;

/** Whether one clause speaks of a value without asserting it. */
function mentionedIn(normalized: string): boolean {
  // Names are read only where a "not" stands before one: every search reads its candidates this way.
  const contrasted = CONTRASTED.test(normalized) && namedValues(normalized).length > 1;
  const asserted = contrasted ? normalized.replace(new RegExp(CONTRASTED.source, 'gu'), ', ') : normalized;
  return MENTION.test(asserted);
}

/**
 * `text` (lower case) without its names (lower case), each taken out only as whole words: a short
 * name is no piece of another word ("Co" of "Hart and Co" leaves "accountant" whole).
 */
function withoutNames(text: string, values: string[]): string {
  let rest = text;
  for (const v of values) {
    const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    rest = rest.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), ' ');
  }
  return rest;
}

/**
 * A short preface before a colon ("Quick one:", "Heads up:"): when the words after it say what the
 * statement is about, the preface says nothing of it ("New gym: Crunch" is about the gym).
 */
const PREFACE = /^\s*(?:[^\s:;]+\s+){0,2}[^\s:;]+:\s+/u;

/** The words of what a statement is about, as written: once names, function words, common verbs and a preface are gone. */
export function aboutWordList(text: string, values = namedValues(text)): string[] {
  const preface = PREFACE.exec(text);
  if (preface && !values.some((v) => preface[0].toLowerCase().includes(v))) {
    const afterIt = aboutWordsIn(text.slice(preface[0].length), values);
    if (afterIt.length) return afterIt;
  }
  return aboutWordsIn(text, values);
}

function aboutWordsIn(text: string, values: string[]): string[] {
  const rest = withoutNames(withoutPossessors(text).toLowerCase(), values).replace(PARTICLE, asCompoundNoun);
  const words = (rest.match(/[\p{L}]+/gu) ?? []).filter((w) => w.length > 2 && !saysNothingOfAnAttribute(w));
  return [...new Set(words)];
}

/**
 * A verb and its particle as the noun English makes of them, when it makes one ("backed up" /
 * "backup", "checked in" / "checkin"), so the two forms meet. Common verbs and verbs of change keep
 * their own meaning ("turns out", "switched over").
 */
function asCompoundNoun(phrase: string, verb: string, particle: string): string {
  const verbRoot = root(verb);
  if (COMMON_VERBS.has(verb) || commonVerbRoots().has(verbRoot) || CHANGE_VERBS.has(verbRoot)) return phrase;
  const compound = `${verbRoot}${particle}`;
  return isCommonWord(compound) ? compound : phrase;
}

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
function commonVerbRoots(): Set<string> {
  return (commonRoots ??= new Set([...COMMON_VERBS].map(root)));
}

/** What a statement is about: its words once names, function words and common verbs are gone, as roots (vocabulary/word-roots.ts). */
export function aboutWords(text: string, values = namedValues(text)): Set<string> {
  return new Set(aboutWordList(text, values).map(root));
}

/**
 * Verbs of a change of what one has, uses or belongs to, and the words of leaving ("Said goodbye to
 * Halifax"), as roots (vocabulary/word-roots.ts): a statement in the past holding one tells of a new value ("Switched banks to HSBC", "Dropped AXA,
 * Zurich were cheaper"), one without tells of an event ("Read a review of Octopus", "Jo recommended
 * Aviva to a friend").
 */
const CHANGE_VERBS = new Set(
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

/**
 * Phrasal verbs of becoming, whose verb alone says nothing of a change ("ended the call", "wound the
 * clock"): "Ended up with Outlook for my email", "Wound up at Lidl for the weekly shop" tell of a
 * value one came to have, as "became" does.
 */
const BECOMING = /\b(?:end|ends|ended|ending|wind|winds|wound|winding)\s+up\b/;

/** Irregular past forms (regular ones end in -ed). */
const IRREGULAR_PAST = new Set(
  (
    'was were had did made came saw said told sent wrote met ate drank ran sat stood spoke thought felt ' +
    'heard found lost won beat paid held kept meant put rode rang sang slept spent taught threw woke wore ' +
    'flew drove fell fought forgot grew hid hit knew led lent lit shut built caught drew fed froze hung ' +
    'shook shot sank stole stuck struck swam swore swept tore brought went took gave got left began ' +
    'became chose'
  ).split(' '),
);

/** Forms of "be" and "get" before a participle that says a state ("I'm insured with", "is registered at"). */
const STATE_BEFORE = /^(?:am|is|are|be|been|being|get|gets|i'm|we're|you're|they're|it's|he's|she's)$/;

/**
 * Whether a statement tells of an event rather than of a value that holds: its main clause is in
 * the past ("Read a review of Octopus in the paper", "Jo recommended Aviva to a friend", "Hillside
 * Primary sent me a survey", "There was a Mubi stand at the fair") and holds no verb of change.
 */
export function tellsOfAnEvent(text: string): boolean {
  const normalized = text.normalize('NFKC').replace(/[’]/g, "'");
  // A clause in the present naming the value says what holds, whatever the other clause did
  // ("Finally sorted the bike thing, it's Trek from now on").
  if (PRESENT_NAMING.test(normalized)) return false;
  // A first clause in the present naming a value says what holds, whatever the next one did ("Work
  // trips are booked on Ryanair now, easyJet kept cancelling").
  const first = /^[^,;]+(?=[,;])/.exec(normalized)?.[0];
  if (first && PRESENT.test(first) && namedValues(first).length) return false;
  const clause = normalized.toLowerCase().replace(SUBORDINATE, '');
  if (BECOMING.test(clause)) return false;
  const names = namedValues(normalized);
  const found = [...clause.matchAll(/[\p{L}']+/gu)];
  const words = found.map((m) => m[0]);
  // A word of change tells of a new value when a name follows it ("Dropped AXA", "The mortgage
  // moved to Halifax") or is its subject ("Halifax became our lender"); not when a thing named in
  // passing went elsewhere ("An email from Octopus went to spam"), nor as a noun ("Compared prices
  // with Aviva, no change").
  const subject = clause.replace(/^(?:the|a|an)\s+/, '');
  const opensWithName = names.some((n) => subject.startsWith(n));
  const nameAfter = (i: number) => {
    const after = clause.slice(found[i].index! + found[i][0].length);
    return !names.length || opensWithName || names.some((n) => after.includes(n));
  };
  let past = false;
  for (const [i, w] of words.entries()) {
    if (CHANGE_VERBS.has(root(w)) && nameAfter(i)) return false;
    const participle = w.length >= 5 && /ed$/.test(w) && !STATE_BEFORE.test(words[i - 1] ?? '');
    // A diary's sentence opening with a verb tells what one did ("Read a review of …").
    if (IRREGULAR_PAST.has(w) || participle || (i === 0 && w === 'read')) past = true;
  }
  return past;
}

/** Words of a clause in the present. */
const PRESENT = /\b(?:am|is|are|now|nowadays|these days)\b/i;

/** A clause of its own, in the present, that names a value: ", it's Trek", "; that is Lidl". */
const PRESENT_NAMING = /[,;:]\s*(?:it|that|this|mine|ours)(?:'s| is)\s+(?:now\s+)?[\p{Lu}\p{N}]/u;

/**
 * A time at which something happens: a day, a clock time, a date ("on Monday", "tomorrow at 3pm",
 * "on 4 May", "next week").
 */
const WHEN =
  /(?<!\bevery\s)\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tonight|tomorrow|yesterday|(?:next|last|this) (?:week|month|year|weekend)|\d{1,2}(?::\d{2})? ?(?:am|pm)|\d{1,2}:\d{2}|\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2}(?:st|nd|rd|th)?)\b/i;

/** A sentence whose subject is a thing: it opens with a determiner. */
const THING_FIRST = /^(?:the|a|an|this|that|these|those|each|every|some|its|his|her|their)\b/i;
/** The speaker, in any person of the first: I, me, my, we, our… */
const FIRST_PERSON = /\b(?:i|me|my|mine|myself|we|us|our|ours)\b/i;

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
  if (!trimmed || /\?\s*$/.test(trimmed) || tokens(trimmed).length > MAX_STATEMENT_WORDS) return undefined;
  // Read as an assertion by the model (asserted-statements.ts): its words are not asked again.
  if (!asserted && (mentionsOnly(trimmed) || tellsOfAnEvent(trimmed))) return undefined;
  // "The meeting with Acme is on Monday": when a thing happens, not one of the speaker's own
  // attributes, unless the speaker is in it ("The flat I rent is …"). A thing with no time of its
  // own is the speaker's ("The cat is registered at Paws Clinic now").
  if (THING_FIRST.test(trimmed) && !FIRST_PERSON.test(trimmed) && WHEN.test(trimmed)) return undefined;
  const values = namedValues(trimmed);
  if (!values.length) return undefined;
  const opening = trimmed.normalize('NFKC').toLowerCase();
  const opensWith = values.find((v) => opening.startsWith(v));
  const person = personOpening(trimmed, values);
  const names = person ? [...values, person] : values;
  return {
    values,
    about: aboutWords(trimmed, names),
    words: contentWords(trimmed, names),
    possessors: [...possessorsOf(trimmed), ...(person ? [person] : [])],
    ...(opensWith ? { opensWith } : {}),
    ...withOtherPerson(otherPersonOf(trimmed)),
  };
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

/** Particles that make a verb another one ("work out" is not "work"). */
const PARTICLE = /\b(\p{L}+) (out|up|off|over|down|away|back)\b/gu;

/**
 * A statement's words of its main clause once names and function words are gone, as roots; verbs
 * kept, phrasal verbs whole.
 */
export function contentWords(text: string, values: string[]): Set<string> {
  const rest = withoutNames(withoutPossessors(text).toLowerCase(), values)
    .replace(SUBORDINATE, '')
    .replace(PARTICLE, (phrase, verb: string, particle: string) =>
      isVerbForm(verb) ? `${verb}${particle}` : phrase,
    );
  return new Set((rest.match(/[\p{L}]+/gu) ?? []).filter((w) => w.length > 2 && !NOT_ABOUT.has(w)).map(root));
}

/**
 * Whether `newer` could replace what `older` asserted, whatever it is about: it gives a value the
 * older did not, and not of another person ("Ben's school" never replaces "Ana's school", nor "My
 * neighbour signed up with Halifax" the speaker's "Our mortgage is with Skipton").
 */
export function mayReplace(newerRead: AttributeStatement, olderRead: AttributeStatement): boolean {
  const [newer, older] = withPeopleApart(newerRead, olderRead);
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
  if (!mayReplace(newer, older)) return undefined;
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
