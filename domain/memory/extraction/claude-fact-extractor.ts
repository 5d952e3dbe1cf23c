/**
 * Fact extraction and the add/update/delete/none decision on Claude (small tier). Both answer
 * strict JSON; token usage is counted per call for the add's `token_usage` and the audit log.
 */
import type { TokenUsage } from '../../../shared/memory-model';
import type { LlmSettings } from '../../llm/llm-settings';
import { messagesClient } from '../../llm/model-client';
import type { FactDecision, FactExtractor, StatedSubject } from './fact-extractor';

export const DEFAULT_EXTRACTION_PROMPT = `You extract durable facts for an AI agent's long-term memory. From the input, list every
fact worth remembering as a short, self-contained statement in the third person (who, what, when, why),
with names instead of pronouns. Skip greetings, questions and small talk. A fact that states what one
single-valued attribute of a person is now (where they live, their employer, bank, gym, doctor, landlord,
a child's school: anything a person has one of at a time) also names it: subject (the person), attribute
(a few lower-case words, the same words every time for the same attribute) and value. Do not give an
attribute for things one has several of (hobbies, pets, friends) nor for something only mentioned, past
or hoped for. Answer with ONLY a JSON object {"facts": [...]}, each fact either "..." or
{"text": "...", "subject": "...", "attribute": "...", "value": "..."} (an empty list when there is
nothing to keep).`;

const DECISION_PROMPT = `You maintain an AI agent's memory. Given a NEW fact and EXISTING memories (with ids), decide one:
- ADD: the new fact is new information;
- UPDATE: it refines or corrects one existing memory (give its id and the merged text);
- DELETE: it says an existing memory is no longer true and nothing should replace it (give the id);
- NONE: it is already known.
When the new fact contradicts a memory, prefer UPDATE with the new truth. Answer with ONLY JSON:
{"event":"ADD"} or {"event":"NONE"} or {"event":"UPDATE","id":"...","text":"..."} or {"event":"DELETE","id":"..."}.`;

const MAX_SUBJECT_PART = 200;
const part = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' && v.length <= MAX_SUBJECT_PART ? v.trim() : undefined;

/** A fact of the model's list: a string, or an object with its text and the attribute it states. */
function readFact(f: unknown): { text: string; subject?: StatedSubject } | undefined {
  if (typeof f === 'string') return f.trim() ? { text: f.trim() } : undefined;
  if (!f || typeof f !== 'object') return undefined;
  const o = f as Record<string, unknown>;
  // The fact's text has no length bound of its own; the subject's parts do.
  const text = typeof o.text === 'string' ? o.text.trim() : '';
  if (!text) return undefined;
  const [holder, attribute, value] = [part(o.subject), part(o.attribute), part(o.value)];
  return holder && attribute && value ? { text, subject: { holder, attribute, value } } : { text };
}

function json<T>(text: string): T {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error(`the model did not answer with JSON: ${text.slice(0, 200)}`);
  return JSON.parse(text.slice(start, end + 1)) as T;
}

export function claudeFactExtractor(settings: LlmSettings): FactExtractor {
  const client = messagesClient(settings);
  const model = settings.models.small;
  const call = async (system: string, content: string): Promise<{ text: string; usage: TokenUsage }> => {
    const res = await client.messages.create({
      model,
      max_tokens: 2048,
      system,
      messages: [{ role: 'user', content }],
    });
    const text = res.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const { input_tokens, output_tokens } = res.usage;
    return {
      text,
      usage: { llm_calls: 1, input_tokens, output_tokens, total_tokens: input_tokens + output_tokens },
    };
  };
  return {
    kind: 'claude',
    async extract(input, customPrompt) {
      const parts = [
        input.text ? `Text:\n${input.text}` : '',
        input.messages?.length
          ? `Conversation:\n${input.messages.map((m) => `${m.role}: ${m.content}`).join('\n')}`
          : '',
      ].filter(Boolean);
      const { text, usage } = await call(customPrompt ?? DEFAULT_EXTRACTION_PROMPT, parts.join('\n\n'));
      const facts = json<{ facts?: unknown }>(text).facts;
      if (!Array.isArray(facts)) throw new Error('the model answered without a facts list');
      const read = facts.map(readFact).filter((f) => f !== undefined);
      return { facts: read.map((f) => f.text), subjects: read.map((f) => f.subject), usage };
    },
    async decide(fact, neighbours) {
      const existing = neighbours.map((n) => `- id ${n.id}: ${n.memory}`).join('\n');
      const { text, usage } = await call(DECISION_PROMPT, `NEW: ${fact}\nEXISTING:\n${existing}`);
      const d = json<FactDecision>(text);
      const known = new Set(neighbours.map((n) => n.id));
      // A decision naming a memory that was not offered is not applied.
      if ((d.event === 'UPDATE' || d.event === 'DELETE') && !known.has(d.id))
        return { decision: { event: 'ADD' }, usage };
      if (d.event === 'UPDATE' && !d.text?.trim()) return { decision: { event: 'ADD' }, usage };
      if (!['ADD', 'NONE', 'UPDATE', 'DELETE'].includes(d.event))
        return { decision: { event: 'ADD' }, usage };
      return { decision: d, usage };
    },
  };
}
