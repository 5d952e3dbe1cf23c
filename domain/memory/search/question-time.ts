/**
 * Whether a question asks what something is now or what it was (docs/memory-search.md#now-and-then):
 * "Where do I live?", "Which bank am I with at the moment?" ask for a value that holds now; "Where
 * did I live before?", "Which car did I drive in 2023?" ask about the past; anything else (not a
 * question for a value, or both at once) reads as neither. Pure, for exact unit tests.
 */
import type { TimeRange } from './time-expressions';

/** What a question asks about in time. */
export type QuestionTime = 'now' | 'then' | 'either';

/**
 * Words asking for a value: which thing, what, who, where; a request for one ("Tell me my current
 * bank", "Remind me of my dentist", "Give me my gym's name"); or how one does a thing of one's own
 * ("How do I book a cab?": by the firm one uses).
 */
const ASKS_FOR_VALUE =
  /\b(?:what|which|who|whom|whose|where|(?:tell|remind|give|show) me|how (?:do|does|can) (?:i|we))\b/i;
/** Words of the past: past auxiliaries, "used to", "before", a year, "ago", "last year". */
const PAST =
  /\b(?:did|was|were|had|used to|before|previously|formerly|earlier|back then|at the time|once|ago|last (?:year|month|week|summer|winter|spring|autumn|fall)|(?:in|during) (?:19|20)\d\d|old|former|prior)\b/i;
/** Words of the present: present auxiliaries and "now", "these days", "currently", "at the moment". */
const PRESENT =
  /\b(?:is|are|am|do|does|have|has|now|nowadays|these days|currently|current|at the moment|at present|right now|today|still)\b/i;

export function questionTime(question: string): QuestionTime {
  const q = question.normalize('NFKC').replace(/[’]/g, "'");
  if (!ASKS_FOR_VALUE.test(q)) return 'either';
  const past = PAST.test(q);
  // "Who supplies our electricity?": a verb in the present after "who" (after "what" or "which", a
  // word ending in -s is a plural noun: "What books …").
  const present = PRESENT.test(q) || /\bwho\s+\p{L}+[^s\W]s\b/iu.test(q);
  if (past && !/\b(?:now|currently|these days|at the moment|still)\b/i.test(q)) return 'then';
  return present ? 'now' : 'either';
}

/**
 * Words that say only when a question about now asks ("my **current** gym", "**these days**", "at
 * the moment"): not what the answer says, so its terms leave them out ("My current account is at
 * ING" is no answer to "What is my current gym?", nor "These days it's Vodafone for my mobile" to
 * "Which computer am I on these days?").
 */
const WORDS_OF_NOW =
  /\b(?:these days|nowadays|at the moment|at present|right now|currently|current|presently|now)\b/giu;

/**
 * Words that say only that a question asks about the past ("**back** in April", "**back then**", "at
 * the time", "previously"): not what the answer says either ("My back is treated by Core Clinic" is
 * no answer to "Which newsagent did I have back in April?"). "My back in March" keeps its noun.
 */
const WORDS_OF_THEN =
  /\b(?:(?<!\b(?:my|your|his|her|our|their|the|a|its)\s+)back(?=\s+(?:in|then|during|when|around|at|before)\b)|at the time|in the past|previously|formerly)\b/giu;

/**
 * A request leading a question in a clause of its own ("Remind me, who …", "Tell me: which …",
 * "Do you know, where …"): it says nothing of what the question asks about.
 */
const LEADING_REQUEST =
  /^\s*(?:(?:please\s+)?(?:remind|tell|show|give)\s+me(?:\s+again)?|do you (?:know|remember)|quick question)\s*[,:;]\s*/i;

/** "How do I book …", "How can we pay …": the verb says how, the words after it what is asked about. */
const HOW_ONE_DOES = /\bhow (?:do|does|can) (?:i|we) [\p{L}'-]+/iu;

/**
 * The question without a request leading it in a clause of its own, nor the verb of a question how
 * one does a thing ("How do I book a cab?" asks about a cab).
 */
export function withoutWordsOfAsking(question: string): string {
  return question.replace(LEADING_REQUEST, '').replace(HOW_ONE_DOES, ' ');
}

/** The question without its words of now or of the past, as it asks about either. */
export function questionWithoutWordsOfTime(question: string): string {
  const time = questionTime(question);
  if (time === 'now') return question.replace(WORDS_OF_NOW, ' ');
  return time === 'then' ? question.replace(WORDS_OF_THEN, ' ') : question;
}

/**
 * "has … decided", "have … camped": the present perfect asks what happened until now ("have got" and
 * "have been with" say what holds, and stay questions about now).
 */
const PERFECT =
  /\b(?:has|have|'ve)\b(?:\s+\p{L}+){0,3}?\s+(?:(?!been\b)\p{L}+(?:ed|en)|done|made|had|read|seen|met|gone|won|lost|bought|taught|thought|brought|found|heard|kept|left|run|written)\b/iu;
/** "What activities", "Which books", "What types of": a question for several things. */
const PLURAL_ASKED =
  /\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?!(?:is|was|has|does|this|its|yes|us)\b)\p{L}+(?<![sui])s\b/iu;

/**
 * Whether a question asks for the one value an attribute holds now ("Which gym do I go to?", "Who
 * is Mia's teacher?"), not for several things ("What books does Ana like?") nor for what happened
 * until now ("Where has Melanie camped?").
 */
export function asksForOneValue(question: string): boolean {
  const q = question.normalize('NFKC').replace(/[’]/g, "'");
  return questionTime(q) === 'now' && !PERFECT.test(q) && !PLURAL_ASKED.test(q);
}

/**
 * Whether a question about the past asks for the one value an attribute held then ("Which gym did
 * I go to in March?"), not for several things ("What books did Ana read in May?").
 */
export function asksForOneValueThen(question: string): boolean {
  const q = question.normalize('NFKC').replace(/[’]/g, "'");
  return questionTime(q) === 'then' && !PLURAL_ASKED.test(q);
}

/**
 * The period in the past a question asks about, when it asks about the past and names one ("Which
 * gym did I go to in March 2025?"): what held then answers it (search/answer-weights.ts).
 */
export function periodAskedAbout(question: string, range: TimeRange | undefined): TimeRange | undefined {
  return range && (range.from || range.to) && questionTime(question) === 'then' ? range : undefined;
}
