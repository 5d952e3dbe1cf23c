/**
 * The offline fact extractor (no model): splits text or a conversation into self-contained
 * statements. Sentences are kept whole; greetings, fillers and questions are dropped; a message's
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

function keep(sentence: string): boolean {
  if (FILLER.test(sentence)) return false;
  if (/\?$/.test(sentence)) return false;
  return sentence.split(/\s+/).length >= MIN_WORDS;
}

export function extractFactsOffline(input: { text?: string; messages?: ChatMessage[] }): string[] {
  const facts: string[] = [];
  if (input.text) facts.push(...sentences(input.text).filter(keep));
  for (const m of input.messages ?? []) {
    const prefix = m.role === 'user' ? '' : `${m.role}: `;
    facts.push(
      ...sentences(m.content)
        .filter(keep)
        .map((s) => prefix + s),
    );
  }
  return [...new Set(facts)];
}
