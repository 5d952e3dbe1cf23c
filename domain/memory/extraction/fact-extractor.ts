/** What extraction produces, whichever extractor runs. */
import type { TokenUsage } from '../../../shared/memory-model';

export interface ChatMessage {
  role: string;
  content: string;
}

/** For each new fact and its nearest stored memories, what to do (mem0-style decision). */
export type FactDecision =
  | { event: 'ADD' }
  | { event: 'NONE' }
  | { event: 'UPDATE'; id: string; text: string }
  | { event: 'DELETE'; id: string };

/**
 * The single-valued attribute a fact states, as a model read it (docs/memory-validity.md#with-claude):
 * whose, which, and the value. Two facts with the same holder and attribute and another value
 * contradict each other.
 */
export interface StatedSubject {
  holder: string;
  attribute: string;
  value: string;
}

/** The key two statements of one attribute share: holder and attribute, lower-cased and spaced once. */
export const statedSubjectKey = (s: Pick<StatedSubject, 'holder' | 'attribute'>): string =>
  `${norm(s.holder)}|${norm(s.attribute)}`;
/** A value as compared: lower-cased and spaced once. */
export const statedValue = (s: Pick<StatedSubject, 'value'>): string => norm(s.value);
const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

export interface FactExtractor {
  readonly kind: 'claude' | 'offline';
  /** Self-contained facts from text and/or messages; `customPrompt` replaces the default for this call. */
  extract(
    input: { text?: string; messages?: ChatMessage[] },
    customPrompt?: string,
    /** The memories' category: offline, `task` selects the task pass (`[type] description`). */
    category?: string,
  ): Promise<{
    facts: string[];
    /** Per fact, the attribute it states when the extractor read one (a model's extraction). */
    subjects?: (StatedSubject | undefined)[];
    usage: TokenUsage;
  }>;
  /** Compares a new fact with its nearest memories (only with a model; offline adds unless duplicate). */
  decide(
    fact: string,
    neighbours: { id: string; memory: string }[],
  ): Promise<{ decision: FactDecision; usage: TokenUsage }>;
}

export const NO_USAGE: TokenUsage = { llm_calls: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    llm_calls: a.llm_calls + b.llm_calls,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}
