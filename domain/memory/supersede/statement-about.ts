/**
 * What a short statement is about: its words once names, function words, words of time and change
 * and common verbs are gone ("gym", "bank", "landlord"), and the words of its main clause
 * (docs/memory-supersede.md#by-evidence). Pure, for exact unit tests.
 */
import { root } from '../vocabulary/word-roots';
import { isCommonWord } from '../vocabulary/common-words';
import {
  CHANGE_VERBS,
  commonVerbRoots,
  isVerbForm,
  NOT_ABOUT,
  mainClause,
  saysNothingOfAnAttribute,
  withoutFrontedClause,
} from '../vocabulary/word-classes';
import { namedValues, withoutNames, withoutPossessors } from './statement-names';

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
  // A clause opening the sentence tells why or when ("Since Aviva put their prices up, …"), of the
  // old value more often than of the attribute.
  const rest = withoutFrontedClause(withoutNames(withoutPossessors(text).toLowerCase(), values)).replace(
    PARTICLE,
    asCompoundNoun,
  );
  const words = (rest.replace(VERB_BEFORE_ITS_OBJECT, ' ').match(/[\p{L}]+/gu) ?? []).filter(
    (w) => w.length > 2 && !saysNothingOfAnAttribute(w),
  );
  return [...new Set(words)];
}

/**
 * A verb in the past before its object ("Finally **sorted** the window cleaner", "**Booked** my back
 * treatment with …"): what was done, while the object says what the statement is about.
 */
const VERB_BEFORE_ITS_OBJECT =
  /(?<![\p{L}])\p{L}{3,}ed(?=\s+(?:the|a|an|my|our|your|his|her|their|this|that|these|those|its)\b)/gu;

/**
 * A verb and its particle as the noun English makes of them, when it makes one ("backed up" /
 * "backup", "checked in" / "checkin"), so the two forms meet. Common verbs and verbs of change keep
 * their own meaning ("turns out", "switched over").
 */
function asCompoundNoun(phrase: string, verb: string, particle: string): string {
  const verbRoot = root(verb);
  if (commonVerbRoots().has(verbRoot) || CHANGE_VERBS.has(verbRoot)) return phrase;
  const compound = `${verbRoot}${particle}`;
  return isCommonWord(compound) ? compound : phrase;
}

/** What a statement is about: its words once names, function words and common verbs are gone, as roots (vocabulary/word-roots.ts). */
export function aboutWords(text: string, values = namedValues(text)): Set<string> {
  return new Set(aboutWordList(text, values).map(root));
}

/** Particles that make a verb another one ("work out" is not "work"). */
const PARTICLE = /\b(\p{L}+) (out|up|off|over|down|away|back)\b/gu;

/**
 * A statement's words of its main clause once names and function words are gone, as roots; verbs
 * kept, phrasal verbs whole.
 */
export function contentWords(text: string, values: string[]): Set<string> {
  const rest = mainClause(withoutNames(withoutPossessors(text).toLowerCase(), values)).replace(
    PARTICLE,
    (phrase, verb: string, particle: string) => (isVerbForm(verb) ? `${verb}${particle}` : phrase),
  );
  return new Set((rest.match(/[\p{L}]+/gu) ?? []).filter((w) => w.length > 2 && !NOT_ABOUT.has(w)).map(root));
}
