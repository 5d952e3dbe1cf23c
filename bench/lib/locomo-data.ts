/**
 * LoCoMo for the memory benchmarks (bench/locomo.ts, bench/locomo-fit.ts): the dataset
 * (/work/shared/datasets/locomo/locomo10.json, see its SOURCE.md), its sessions and evidence, and
 * every turn stored through the memory service's HTTP API.
 *
 * Every dialogue turn is stored with POST /memory/add (infer=false, one user per conversation,
 * created_at = the session's date and time + the turn's index in seconds, text "<speaker>: <text>"
 * plus " [shared an image: <blip_caption>]" when the turn has an image, metadata with the dia_id).
 * Duplicate turns (same normalized text from the same speaker) are one memory: the add answers the
 * existing id, and that memory stands for every turn it covers.
 */
import { DATASETS_DIR } from '../../test/fixtures/datasets-dir';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MONTHS } from '../../domain/memory/search/time-expressions';
import { loadLine, ms, summarize, timed } from './bench-stats';
import type { AddResponse, JsonClient } from './memory-server';

export const DATASET = path.join(DATASETS_DIR, 'locomo', 'locomo10.json');
export const DAY_MS = 86_400_000;

/**
 * The category numbers of locomo10.json. SOURCE.md names only 5 (adversarial); 1–4 follow the
 * upstream evaluation code (snap-research/locomo task_eval), whose numbering differs from the
 * order the paper lists the types in.
 */
export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface Qa {
  question: string;
  evidence: string[];
  category: number;
}

export interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Qa[];
}

/** One stored conversation. */
export interface StoredConversation {
  /** 0-based position in the dataset. */
  index: number;
  sample: Sample;
  user: string;
  /** dia_id → the memory id that stands for the turn. */
  memoryOfTurn: Map<string, string>;
  /** The distinct memories, as stored. */
  docs: { id: string; text: string }[];
  lastSession: Date;
}

/** The first `n` conversations of the dataset. */
export function loadSamples(n: number): Sample[] {
  return (JSON.parse(fs.readFileSync(DATASET, 'utf8')) as Sample[]).slice(0, n);
}

/** "1:56 pm on 8 May, 2023" as a UTC instant (the dataset gives no time zone). */
function sessionDate(text: string): Date {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`unexpected session date "${text}"`);
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

/** The sessions of a conversation in order, each with its date and turns. */
export function sessions(sample: Sample): { n: number; date: Date; turns: Turn[] }[] {
  const c = sample.conversation;
  return Object.keys(c)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(c[m[0]]))
    .map((m) => ({
      n: Number(m[1]),
      date: sessionDate(String(c[`session_${m[1]}_date_time`])),
      turns: c[m[0]] as Turn[],
    }))
    .sort((a, b) => a.n - b.n);
}

export const memoryText = (t: Turn) =>
  `${t.speaker}: ${t.text}${t.blip_caption ? ` [shared an image: ${t.blip_caption}]` : ''}`;

/** Evidence refs as clean dia_ids ("D8:6; D9:17" → two, "D:11:26" → D11:26, "D" → none). */
export function evidenceIds(evidence: string[]): string[] {
  const ids = evidence
    .flatMap((e) => String(e).split(/[;,\s]+/))
    .map((e) => /^D:?(\d+):(\d+)$/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `D${m[1]}:${m[2]}`);
  return [...new Set(ids)];
}

/** The distinct memory ids of a question's evidence (empty when none resolves to a stored turn). */
export function evidenceMemories(conversation: StoredConversation, qa: Qa): string[] {
  const ids = evidenceIds(qa.evidence)
    .map((id) => conversation.memoryOfTurn.get(id))
    .filter((m): m is string => m !== undefined);
  return [...new Set(ids)];
}

/** The service's clock for a conversation's questions: the day after its last session. */
export const questionClock = (conversation: StoredConversation): Date =>
  new Date(conversation.lastSession.getTime() + DAY_MS);

/** Stores every turn of `samples` through POST /memory/add, printing the ingestion figures. */
export async function storeConversations(
  client: JsonClient,
  samples: Sample[],
): Promise<StoredConversation[]> {
  const stored: StoredConversation[] = [];
  const addTimes: number[] = [];
  let turns = 0;
  let duplicates = 0;
  const started = performance.now();
  for (const [index, sample] of samples.entries()) {
    const user = `locomo-${sample.sample_id}`;
    const memoryOfTurn = new Map<string, string>();
    const docs: { id: string; text: string }[] = [];
    const all = sessions(sample);
    for (const session of all) {
      for (const [i, turn] of session.turns.entries()) {
        const text = memoryText(turn);
        const [took, res] = await timed(() =>
          client.post<AddResponse>('/memory/add', {
            user_id: user,
            text,
            infer: false,
            created_at: new Date(session.date.getTime() + i * 1000).toISOString(),
            metadata: { dia_id: turn.dia_id, session: session.n, conversation: sample.sample_id },
          }),
        );
        addTimes.push(took);
        const result = res.results[0];
        memoryOfTurn.set(turn.dia_id, result.id);
        if (result.event === 'ADD') docs.push({ id: result.id, text });
        else duplicates++;
        turns++;
        if (turns % 1000 === 0) console.log(`  stored ${turns} turns… ${loadLine()}`);
      }
    }
    stored.push({ index, sample, user, memoryOfTurn, docs, lastSession: all[all.length - 1].date });
  }
  const seconds = (performance.now() - started) / 1000;
  const adds = summarize(addTimes);
  console.log(
    `stored ${turns} turns as ${turns - duplicates} memories (${duplicates} exact duplicates answered NONE) in ` +
      `${seconds.toFixed(1)} s: ${(turns / seconds).toFixed(0)} adds/s, add p50 ${ms(adds.p50)} ms, p99 ${ms(adds.p99)} ms`,
  );
  return stored;
}
