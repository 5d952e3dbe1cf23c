/**
 * Whether a short statement asserts the values it names or only mentions them (talk, sight, doubt,
 * what others say), and whether it tells of an event rather than of a value that holds
 * (docs/memory-supersede.md#by-evidence). Pure, for exact unit tests.
 */
import { root } from '../vocabulary/word-roots';
import { CHANGE_VERBS, COMMON_VERBS, mainClause } from '../vocabulary/word-classes';
import { FIRST_PERSON, namedValues } from './statement-names';

/**
 * Words that speak of a value without asserting it holds: talk, sight, memory, wishes, doubt, the
 * past. "Talked about Ajax with Jo", "I used to love Ajax", "I might move to Porto".
 */
const MENTION =
  /\b(?:used to|talk(?:ed|ing|s)? (?:about|of|with)|chat(?:ted|ting)? about|saw|seen|walk(?:ed|ing)? (?:past|by)|pass(?:ed|ing)? by|advert|ad for|heard|hear about|read about|remember(?:ed)?|remind(?:ed|s)?|miss(?:ed|ing)?|wish(?:ed)?|hope|might|maybe|perhaps|could|would|should|thinking (?:of|about)|think(?:ing)? about|consider(?:ed|ing)?|wonder(?:ed|ing)?|dream(?:ed|t)? (?:of|about)|if|whether|unless|never|not|no longer|don't|doesn't|didn't|isn't|wasn't|won't)\b/i;

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
    'became chose bought sold'
  ).split(' '),
);

/**
 * Irregular past participles of verbs of change ("has taken over as our butcher", "have chosen
 * Aviva"), whose stems are not their verbs' roots: they tell of a change as the past forms do.
 */
const CHANGE_PARTICIPLES = new Set('taken given chosen gone begun gotten'.split(' '));

/** Whether a word (lower case) is a verb of change in the past, or its participle. */
const changedForm = (w: string): boolean =>
  CHANGE_PARTICIPLES.has(w) ||
  (CHANGE_VERBS.has(root(w)) && (IRREGULAR_PAST.has(w) || /ed$/.test(w) || w === 'quit'));

/** Forms of "be" and "get" before a participle that says a state ("I'm insured with", "is registered at"). */
const STATE_BEFORE = /^(?:am|is|are|be|been|being|get|gets|i'm|we're|you're|they're|it's|he's|she's)$/;
/** Adverbs that may stand between the two ("is now run by", "are usually made by"). */
const BETWEEN_STATE = /^(?:now|still|also|all|always|usually|normally|mostly|currently|regularly|properly)$/;

/** Whether the word at `i` follows a form of "be" or "get", an adverb between them or not. */
const afterState = (words: string[], i: number): boolean =>
  STATE_BEFORE.test(words[i - 1] ?? '') ||
  (BETWEEN_STATE.test(words[i - 1] ?? '') && STATE_BEFORE.test(words[i - 2] ?? ''));

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
  // A name chosen over another says what holds ("Booked Rex into Canine Lodge rather than Happy Paws").
  if (CHOSEN_OVER.test(normalized)) return false;
  // So does a later clause in the present naming one ("Deleted Addison Lee and use Bolt for taxis").
  if (laterClausesOf(normalized).some((c) => inThePresent(c) && namedValues(c).length)) return false;
  const clause = mainClause(normalized.toLowerCase());
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
  // A one-off thing got, bought or sent from or for someone is an event, not a value one has now.
  const oneOff = oneOffVerbs(normalized);
  // A word of a name is no verb ("Bought By Many", "Went Digital"): where names stand is read once,
  // when a word that may be a verb asks.
  let nameSpans: [number, number][] | undefined;
  const inName = (i: number) =>
    (nameSpans ??= names.flatMap((n) => {
      const spans: [number, number][] = [];
      for (let at = clause.indexOf(n); at >= 0; at = clause.indexOf(n, at + 1))
        spans.push([at, at + n.length]);
      return spans;
    })).some(([from, to]) => found[i].index! >= from && found[i].index! < to);
  let past = false;
  for (const [i, w] of words.entries()) {
    const change = CHANGE_VERBS.has(root(w)) || CHANGE_PARTICIPLES.has(w);
    // A participle after a form of "be" or "get" says a state, regular or not ("is registered at",
    // "are made by", "is now run by").
    const state = afterState(words, i);
    const participle = w.length >= 5 && /ed$/.test(w) && !state;
    // A diary's sentence opening with a verb tells what one did ("Read a review of …").
    const pastForm = (IRREGULAR_PAST.has(w) && !state) || participle || (i === 0 && w === 'read');
    if ((!change && !pastForm) || inName(i)) continue;
    if (change && nameAfter(i) && !oneOff.has(w)) return false;
    if (pastForm) past = true;
  }
  return past;
}

/** A name set against the one chosen: "rather than Happy Paws", "instead of Aviva". */
const CHOSEN_OVER = /\b(?:rather than|instead of|in place of)\s+(?:the\s+)?[\p{Lu}\p{N}]/u;

/**
 * The clauses after the first, as "and", "but", "so", a comma or a semicolon set them apart. One
 * space is matched and the rest trimmed: `\s+` on both sides took time growing with the square of a
 * run of spaces (seconds for a tenant's text of 100,000).
 */
const laterClausesOf = (text: string): string[] =>
  text
    .split(/\s(?:and|but|so)\s|[,;]\s/)
    .slice(1)
    .map((clause) => clause.trim());

/**
 * Whether a clause opens, after its subject pronoun or none, with a verb in the present ("use Bolt
 * for taxis", "we go to Kings Hall"): a common verb in no past form.
 */
function inThePresent(clause: string): boolean {
  const [verb = ''] = clause.replace(/^(?:i|we|they|you)\s+/i, '').split(/\s+/);
  const w = verb.toLowerCase();
  return COMMON_VERBS.has(w) && !IRREGULAR_PAST.has(w) && !/(?:ed|en|wn)$/.test(w);
}

/**
 * A verb with a thing of no name, from or for a name: "Got a leaflet from Octopus", "Bought a
 * birthday present for Alex", "Got a Christmas card from Oakwood" (a name may qualify the thing), not
 * "Bought a VW Golf" nor "Opened an account with Monzo".
 */
const ONE_OFF = /\b(\p{L}+)\s+(?:a|an)\s+(?:[\p{L}-]+\s+){0,2}[\p{Ll}-]+\s+(?:from|for)\s+[\p{Lu}\p{N}]/gu;

/** The verbs (lower case) of the one-off things a text tells of (`ONE_OFF`). */
const oneOffVerbs = (normalized: string): Set<string> =>
  new Set([...normalized.matchAll(ONE_OFF)].map((m) => m[1].toLowerCase()));

/**
 * Words that say a value came after another: of the present against the past, of what replaced
 * what, of a later choice ("now", "these days", "instead", "rather than", "no more", "new", "since", "as of", "from now on",
 * "from today", "any more", "this time", "better"), of a search that ended ("finally"), of a recent
 * start ("for a few weeks").
 */
const CHANGE_SAID =
  /\b(?:now|nowadays|currently|these days|at the moment|at present|any ?more|no longer|no more|instead|rather than|new|newly|this (?:time|year|month|week|season)|lately|recently|since|as of|from now on|(?:from|starting|beginning) (?:today|tomorrow|this|next)|finally|better|for (?:a|a few|a couple of|the past|the last|two|three|several|some) (?:days|weeks|months))\b/i;

/**
 * Whether a statement says its value came after another: by a word of change or of the present
 * against the past, or a verb of change in the past ("Dropped Aviva", "Halifax became our lender").
 * "I bank with ING" and "I get my hair coloured at Kutz" say no such thing: they may be the first
 * statement of an attribute as well as a change.
 */
export function tellsOfAChange(text: string): boolean {
  const lower = text.normalize('NFKC').replace(/[’]/g, "'").toLowerCase();
  if (CHANGE_SAID.test(lower) || BECOMING.test(lower)) return true;
  // A thing got or bought from someone is no change ("Got a Christmas card from Oakwood Kennels").
  const oneOff = oneOffVerbs(text.normalize('NFKC'));
  return (lower.match(/[\p{L}']+/gu) ?? []).some((w) => changedForm(w) && !oneOff.has(w));
}

/** Words of a clause in the present. */
const PRESENT = /\b(?:am|is|are|now|nowadays|these days)\b/i;

/** A clause of its own, in the present, that names a value: ", it's Trek", "; that is Lidl". */
const PRESENT_NAMING = /[,;:]\s*(?:it|that|this|mine|ours)(?:'s| is)\s+(?:now\s+)?[\p{Lu}\p{N}]/u;
