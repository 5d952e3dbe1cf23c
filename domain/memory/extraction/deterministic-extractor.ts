/**
 * The offline fact extractor (no model): splits text or a conversation into self-contained
 * statements. Sentences are kept whole (a topic the speaker asks and answers, "My bank? ING now.",
 * with its answer); greetings, fillers and questions are dropped; a message's
 * speaker is kept when it is not the user ("assistant: ..."), so a statement says who said it.
 */
import type { ChatMessage } from './fact-extractor';

const FILLER =
  /^(hi|hello|hey|thanks|thank you|ok|okay|sure|great|cool|yes|no|bye|good (morning|night|evening))\b[\s!.,]*$/i;
const MIN_WORDS = 3;

/** Sentences of a text, split at ., ! or ? followed by space and a capital or digit, and at line breaks. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u))
    .map((s) => s.trim().replace(/^[-*•]\s+/, ''))
    .filter(Boolean);
}

/** How a question opens in English: an auxiliary or a wh-word ("Do I…?", "Which gym…?"). */
const QUESTION_OPENER =
  /^(?:do|does|did|is|are|am|was|were|can|could|will|would|shall|should|may|might|must|have|has|had|who|whom|whose|what|which|where|when|why|how)\b/i;
/** The longest topic a speaker asks themselves before answering it ("My bank? ING now."). */
const TOPIC_WORDS = 4;

/**
 * A short sentence telling only what the speaker left, by a verb of leaving and a name with no
 * destination ("Switched over from Nest.", "Cancelled Gousto.", "Left Aviva!"): the sentence after it
 * says what came instead.
 */
const LEFT_ONLY =
  /^(?:[Ss]witched|[Mm]oved|[Cc]hanged|[Ll]eft|[Qq]uit|[Dd]ropped|[Cc]ancell?ed|[Dd]itched|[Dd]umped|[Ss]topped using)(?:\s+(?:over|away|across|out))?(?:\s+(?:from|of))?\s+[\p{Lu}\p{N}][^\s.!?,;:]*(?:\s+[\p{Lu}\p{N}&][^\s.!?,;:]*){0,3}[.!]?$/u;

/**
 * Sentences with a topic the speaker asks and answers at once joined to its answer: "My piano
 * teacher? Mrs Okafor, since the spring." is one statement, whose first part says what the second
 * is about. A topic is a short question that opens as no question does (no auxiliary, no wh-word).
 * So is a sentence telling only what was left joined to the next ("Switched over from Nest. Aviva is
 * our pension provider."): the one change.
 */
function withTopicsJoined(list: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    const next = list[i + 1];
    const topic =
      (/\?$/.test(s) &&
        s.split(/\s+/).length <= TOPIC_WORDS &&
        !QUESTION_OPENER.test(s.replace(/^[^\p{L}]+/u, ''))) ||
      LEFT_ONLY.test(s);
    if (topic && next !== undefined && !/\?$/.test(next)) {
      joined.push(`${s} ${next}`);
      i++;
    } else joined.push(s);
  }
  return joined;
}

function keep(sentence: string): boolean {
  if (FILLER.test(sentence)) return false;
  if (/\?$/.test(sentence)) return false;
  return sentence.split(/\s+/).length >= MIN_WORDS;
}

export function extractFactsOffline(input: { text?: string; messages?: ChatMessage[] }): string[] {
  const facts: string[] = [];
  if (input.text) facts.push(...withTopicsJoined(sentences(input.text)).filter(keep));
  for (const m of input.messages ?? []) {
    const prefix = m.role === 'user' ? '' : `${m.role}: `;
    facts.push(
      ...withTopicsJoined(sentences(m.content))
        .filter(keep)
        .map((s) => prefix + s),
    );
  }
  return [...new Set(facts)];
}
