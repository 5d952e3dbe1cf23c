/**
 * Reads what a fact says about whom, when it sets a single-valued attribute of a person: "I moved
 * to Lisbon in March" → `self|residence` = `lisbon`. Two facts with the same key and different
 * values contradict each other, so the newer one supersedes the older (docs/memory-supersede.md).
 * Anything else (several clauses, a question, a negation, a hobby) reads as no subject.
 */
import { stem } from '../search/text-terms';
import { ATTRIBUTE_CUES } from '../vocabulary/person-attributes';
import { ownedAttribute, VERB_RULES } from './subject-patterns';
import { beforeBoundary, readValue } from './subject-values';

/** A fact's subject: whose attribute, which one, and the value it states. */
export interface FactSubject {
  /** `holder|attribute`: `self|residence`, `ana|favourite food`, `self|name of dog`. */
  key: string;
  /** `self` for the speaker ("I", "my"), else the lower-cased name ("Ana", "Ana's"). */
  holder: string;
  attribute: string;
  /** The value, normalized for comparison (`lisbon`, `12 baker street`). */
  value: string;
  /** Words a statement of this subject tends to hold, to find earlier ones lexically. */
  cues: string[];
}

/** Longer facts are not one attribute's statement (and are not worth the regex time). */
export const MAX_SUBJECT_FACT_CHARS = 300;

/** Openers that do not change what a sentence states ("Actually, I live in …"). */
const OPENER =
  /^(?:(?:actually|so|well|oh|okay|ok|btw|by the way|anyway|update|correction|fyi|just so you know|these days|nowadays|now|currently|as of (?:today|now|this (?:week|month|year)))[,:;!]?\s+)+/i;
/** Words that are not a person's name when they start a sentence. */
const NOT_A_NAME = new Set(
  (
    'the this that these those it he she they we you there here our their his her its your my a an ' +
    'each every some any no all everyone everybody someone somebody nobody one today yesterday ' +
    'tomorrow what who which where when why how i if then also and but so maybe please call'
  ).split(' '),
);
const NAME = String.raw`\p{Lu}[\p{L}\p{M}-]*(?: \p{Lu}[\p{L}\p{M}-]*)?`;
/** Longest side of a preference ("green tea" over "coffee"): a longer one is a clause. */
const MAX_PREFERENCE_WORDS = 3;
const AFTER_PERSON = /^(?:now|currently|just|recently|finally|actually|officially) /i;

/** A fact cleaned for reading: one line, straight quotes, contractions opened, end stop dropped. */
function cleaned(fact: string): string | undefined {
  if (fact.length > MAX_SUBJECT_FACT_CHARS) return undefined;
  let s = fact.normalize('NFKC').replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  if (/\?\s*$/.test(s)) return undefined;
  s = s.replace(/[.!…]+$/u, '').trim();
  s = s.replace(OPENER, '');
  s = s
    .replace(/^i'm /i, 'I am ')
    .replace(/^i've /i, 'I have ')
    .replace(/^i am now /i, 'I am ');
  return s || undefined;
}

/** The person a sentence starts with and what follows: `I …`, `my …`, `Ana …`, `Ana's …`. */
function person(s: string): { holder: string; owned: boolean; third: boolean; rest: string } | undefined {
  const first = /^(I|my) (.+)$/i.exec(s);
  if (first) return { holder: 'self', owned: /^my$/i.test(first[1]), third: false, rest: first[2] };
  const named = new RegExp(`^(${NAME})('s)? (.+)$`, 'u').exec(s);
  if (!named || NOT_A_NAME.has(named[1].split(' ')[0].toLowerCase())) return undefined;
  return { holder: named[1].toLowerCase(), owned: Boolean(named[2]), third: true, rest: named[3] };
}

function subject(holder: string, attribute: string, value: string, cues: string[]): FactSubject {
  const names = holder === 'self' ? [] : holder.split(' ');
  return { key: `${holder}|${attribute}`, holder, attribute, value, cues: [...new Set([...cues, ...names])] };
}

/** "I live in …", "Ana works at …", "I prefer tea over coffee". */
function verbSubject(holder: string, third: boolean, rest: string): FactSubject | undefined {
  const said = rest.replace(AFTER_PERSON, '');
  const [prefers, likes] = third ? ['prefers', 'likes'] : ['prefer', 'like'];
  const prefer = new RegExp(
    `^(?:${prefers}|${likes}(?= .+ (?:more|better) than )) (.+?) (?:over|to|rather than|instead of|(?:more|better) than) (.+)$`,
    'iu',
  ).exec(said);
  if (prefer) {
    const chosen = readValue(prefer[1], 'phrase');
    const other = readValue(prefer[2], 'phrase');
    if (!chosen || !other || chosen === other) return undefined;
    if (Math.max(chosen.split(' ').length, other.split(' ').length) > MAX_PREFERENCE_WORDS) return undefined;
    const pair = [chosen, other].map((v) => v.split(' ').map(stem).join(' ')).sort();
    return subject(holder, `preference ${pair.join(' / ')}`, chosen, ['prefer', 'over', chosen, other]);
  }
  for (const rule of VERB_RULES) {
    const m = new RegExp(`^(?:${third ? rule.third : rule.first}) (.+)$`, 'iu').exec(said);
    if (!m) continue;
    const raw =
      rule.kind === 'number' ? m[1].replace(/^(\d{1,3}) (?:years?|yrs?)(?: old| of age)?/i, '$1') : m[1];
    const value = readValue(raw, rule.kind);
    return value ? subject(holder, rule.attribute, value, ATTRIBUTE_CUES[rule.attribute] ?? []) : undefined;
  }
  return undefined;
}

/** "my address is …", "Ana's favourite food is …", "my dog is called …", "my home is in …". */
function ownedSubject(holder: string, rest: string): FactSubject | undefined {
  const home = /^(?:home|house|flat|apartment|place) is (?:now )?in (.+)$/iu.exec(rest);
  if (home) {
    const value = readValue(home[1], 'proper');
    return value ? subject(holder, 'residence', value, ATTRIBUTE_CUES.residence) : undefined;
  }
  const called = /^(\p{L}+(?: \p{L}+)?) is (?:now )?(?:called|named) (.+)$/iu.exec(rest);
  if (called) {
    const owned = ownedAttribute(`${called[1]}'s name`);
    const value = owned && readValue(called[2], 'proper');
    return owned && value ? subject(holder, owned.attribute, value, owned.cues) : undefined;
  }
  const stated =
    /^(.{1,40}?) (?:is|is now|has become|has changed to|changed to|=) (.+)$|^(.{1,40}?): (.+)$/iu.exec(rest);
  if (!stated) return undefined;
  const owned = ownedAttribute(stated[1] ?? stated[3]);
  const value = owned && readValue((stated[2] ?? stated[4]).replace(/^now /i, ''), owned.kind);
  return owned && value ? subject(holder, owned.attribute, value, owned.cues) : undefined;
}

/** "Sushi is my favourite food", "Ramen is now Ana's favourite dish". */
function invertedFavourite(s: string): FactSubject | undefined {
  const m = new RegExp(
    `^(.{1,60}?) is (?:now )?(my|${NAME}'s) ((?:all-time )?(?:favou?rite|fave) .+)$`,
    'iu',
  ).exec(s);
  if (!m) return undefined;
  const owned = ownedAttribute(beforeBoundary(m[3]));
  const value = owned && readValue(m[1], 'phrase');
  const holder = /^my$/i.test(m[2]) ? 'self' : m[2].slice(0, -2).toLowerCase();
  if (holder !== 'self' && NOT_A_NAME.has(holder.split(' ')[0])) return undefined;
  return owned && value ? subject(holder, owned.attribute, value, owned.cues) : undefined;
}

/** The single-valued attribute a fact sets, or undefined when it sets none this reader knows. */
export function readSubject(fact: string): FactSubject | undefined {
  const s = cleaned(fact);
  if (!s) return undefined;
  const callMe = /^(?:please )?call me (.+)$/i.exec(s);
  if (callMe) {
    const value = readValue(callMe[1], 'proper');
    return value ? subject('self', 'name', value, ATTRIBUTE_CUES.name) : undefined;
  }
  const who = person(s);
  if (who) {
    const found = who.owned
      ? ownedSubject(who.holder, who.rest)
      : verbSubject(who.holder, who.third, who.rest);
    if (found) return found;
  }
  // A diary's sentence leaves the speaker out ("Went vegan in May", "Moved to Porto last week"):
  // one that opens with a verb in the past is the speaker's.
  if ((!who || who.third) && SPEAKER_LEFT_OUT.test(s)) {
    const found = verbSubject('self', false, s.charAt(0).toLowerCase() + s.slice(1));
    if (found) return found;
  }
  return invertedFavourite(s);
}

/** A sentence opening with a verb in the past: a regular one, or one of the irregular verbs of change. */
const SPEAKER_LEFT_OUT = /^(?:\p{L}{2,}ed|went|became|got|began|took|left)\b/iu;
