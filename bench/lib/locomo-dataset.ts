/**
 * LoCoMo (the shared datasets' locomo10.json, see its SOURCE.md) read the way bench/locomo.ts
 * reads it: sessions with their dates, a turn's memory text, clean evidence dia_ids, category names.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { MONTHS } from '../../domain/memory/search/time-expressions';

export const LOCOMO_DATASET = path.resolve(repoRoot, '..', 'shared', 'datasets', 'locomo', 'locomo10.json');

/** The upstream evaluation code's numbering (bench/locomo.ts says more). */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface LocomoQa {
  question: string;
  evidence: string[];
  category: number;
}

export interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: LocomoQa[];
}

export function loadLocomo(conversations: number): LocomoSample[] {
  return (JSON.parse(fs.readFileSync(LOCOMO_DATASET, 'utf8')) as LocomoSample[]).slice(0, conversations);
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
export function locomoSessions(sample: LocomoSample): { n: number; date: Date; turns: LocomoTurn[] }[] {
  const c = sample.conversation;
  return Object.keys(c)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(c[m[0]]))
    .map((m) => ({
      n: Number(m[1]),
      date: sessionDate(String(c[`session_${m[1]}_date_time`])),
      turns: c[m[0]] as LocomoTurn[],
    }))
    .sort((a, b) => a.n - b.n);
}

export const locomoMemoryText = (t: LocomoTurn) =>
  `${t.speaker}: ${t.text}${t.blip_caption ? ` [shared an image: ${t.blip_caption}]` : ''}`;

/** Evidence refs as clean dia_ids ("D8:6; D9:17" → two, "D:11:26" → D11:26, "D" → none). */
export function locomoEvidenceIds(evidence: string[]): string[] {
  const ids = evidence
    .flatMap((e) => String(e).split(/[;,\s]+/))
    .map((e) => /^D:?(\d+):(\d+)$/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `D${m[1]}:${m[2]}`);
  return [...new Set(ids)];
}
