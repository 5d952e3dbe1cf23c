/**
 * `npm run bench:memory-updates` (issue #52): whether the memory service answers what is true now
 * when a user's facts change over a year, said in everyday words among everyday notes.
 *
 * Users are generated (bench/lib/memory-updates/): per user four attributes set and changed once or
 * twice, two set once and left, earlier values mentioned in passing after they changed, sixteen
 * everyday notes. Each statement goes through POST /memory/add with the API's defaults (infer on),
 * dated by `created_at`; each question through POST /memory/search with the API's defaults (hybrid,
 * time decay on), asked the day after the year ends.
 *
 * Parts split by attribute and by phrasing: `dev` (bench/lib/memory-updates/dev.ts), `dev-2`
 * (dev-2.ts, written once `dev` had been tuned against), `dev-3` (dev-3.ts, written once both
 * had), `dev-4` (dev-4.ts, written once dev-3 had), `dev-5` (dev-5.ts, once dev-4 had), `dev-6`
 * (dev-6.ts, once dev-5 had), `dev-7` (dev-7.ts, once dev-6 had), `dev-8` (dev-8.ts, once dev-7
 * had), `dev-9` (dev-9.ts, once dev-8 had) and `dev-10` (dev-10.ts, once dev-9 had), to develop on, and `held aside`
 * (held-aside.ts), written before any ranking change and only measured.
 * Printed per part: current@1 (the first result names the current value) and current@3, the share
 * whose first result names an earlier value, and old@3 (an attribute stated once is in the top 3);
 * beside BM25 over the same texts (baseline in the same run: k1 1.2, b 0.75); current@1 with
 * time decay off, to tell decay's share of the misses from the memories'; and then@1: for a
 * question naming a month when an earlier value held ("What was my gym in March 2025?", the bench's
 * own phrasings, asked of every part), the first result names that value.
 *
 * BENCH_USERS=30 (per part). BENCH_PARTS=dev,dev-2 runs only those parts. BENCH_SHOW_MISSES=N prints the first N misses of
 * the dev parts (never the held-aside part's: looking at them would fit the code to them).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Bm25Index } from './lib/bm25';
import { performance } from 'node:perf_hooks';
import { envInt, machineLine, ms, pct, ratio, runBench, summarize, table } from './lib/bench-stats';
import { DEV_ATTRIBUTES, DEV_PHRASINGS } from './lib/memory-updates/dev';
import { DEV_2_ATTRIBUTES, DEV_2_PHRASINGS } from './lib/memory-updates/dev-2';
import { DEV_3_ATTRIBUTES, DEV_3_PHRASINGS } from './lib/memory-updates/dev-3';
import { DEV_4_ATTRIBUTES, DEV_4_PHRASINGS } from './lib/memory-updates/dev-4';
import { DEV_5_ATTRIBUTES, DEV_5_PHRASINGS } from './lib/memory-updates/dev-5';
import { DEV_6_ATTRIBUTES, DEV_6_PHRASINGS } from './lib/memory-updates/dev-6';
import { DEV_7_ATTRIBUTES, DEV_7_PHRASINGS } from './lib/memory-updates/dev-7';
import { DEV_8_ATTRIBUTES, DEV_8_PHRASINGS } from './lib/memory-updates/dev-8';
import { DEV_9_ATTRIBUTES, DEV_9_PHRASINGS } from './lib/memory-updates/dev-9';
import { DEV_10_ATTRIBUTES, DEV_10_PHRASINGS } from './lib/memory-updates/dev-10';
import { generateUsers, YEAR_DAYS, type PartSpec } from './lib/memory-updates/generate';
import { HELD_ASIDE_ATTRIBUTES, HELD_ASIDE_PHRASINGS } from './lib/memory-updates/held-aside';
import type { GeneratedUser, NowQuestion } from './lib/memory-updates/model';
import { benchConfig, startMemoryServer, type SearchItem } from './lib/memory-server';

const USERS = envInt('BENCH_USERS', 30);
const SHOW_MISSES = envInt('BENCH_SHOW_MISSES', 0);
/** BENCH_PARTS=dev: only these parts (while developing, the held-aside part is not run at all). */
const ONLY_PARTS = process.env.BENCH_PARTS?.split(',').filter(Boolean);
let shownMisses = 0;
const DAY_MS = 86_400_000;
const START = Date.parse('2025-01-01T09:00:00Z');

const PARTS: PartSpec[] = [
  { name: 'dev', attributes: DEV_ATTRIBUTES, phrasings: DEV_PHRASINGS, users: USERS, seed: 52 },
  { name: 'dev-2', attributes: DEV_2_ATTRIBUTES, phrasings: DEV_2_PHRASINGS, users: USERS, seed: 522 },
  { name: 'dev-3', attributes: DEV_3_ATTRIBUTES, phrasings: DEV_3_PHRASINGS, users: USERS, seed: 5223 },
  { name: 'dev-4', attributes: DEV_4_ATTRIBUTES, phrasings: DEV_4_PHRASINGS, users: USERS, seed: 5224 },
  { name: 'dev-5', attributes: DEV_5_ATTRIBUTES, phrasings: DEV_5_PHRASINGS, users: USERS, seed: 5225 },
  { name: 'dev-6', attributes: DEV_6_ATTRIBUTES, phrasings: DEV_6_PHRASINGS, users: USERS, seed: 5226 },
  { name: 'dev-7', attributes: DEV_7_ATTRIBUTES, phrasings: DEV_7_PHRASINGS, users: USERS, seed: 5227 },
  { name: 'dev-8', attributes: DEV_8_ATTRIBUTES, phrasings: DEV_8_PHRASINGS, users: USERS, seed: 5228 },
  { name: 'dev-9', attributes: DEV_9_ATTRIBUTES, phrasings: DEV_9_PHRASINGS, users: USERS, seed: 5229 },
  { name: 'dev-10', attributes: DEV_10_ATTRIBUTES, phrasings: DEV_10_PHRASINGS, users: USERS, seed: 52210 },
  {
    name: 'held-aside',
    attributes: HELD_ASIDE_ATTRIBUTES,
    phrasings: HELD_ASIDE_PHRASINGS,
    users: USERS,
    seed: 5252,
  },
];

/** Every add's time (infer on: extraction, supersede checks, versions), over both parts. */
const addTimes: number[] = [];

const names = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());

interface Tally {
  questions: number;
  current1: number;
  /** current@1 with `time_decay: false`: how much of a miss is decay's, how much the memories'. */
  current1NoDecay: number;
  current3: number;
  earlierFirst: number;
  bm25Current1: number;
  unchanged: number;
  old3: number;
  bm25Old3: number;
  /** Questions naming a month when an earlier value held, and how many were answered with it first. */
  thenQuestions: number;
  then1: number;
  bm25Then1: number;
}

async function main(): Promise<void> {
  console.log(machineLine());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-updates-'));
  const server = await startMemoryServer(dataDir, benchConfig(), {
    now: () => new Date(START + (YEAR_DAYS + 1) * DAY_MS),
  });
  try {
    const rows: string[][] = [];
    for (const part of PARTS.filter((p) => !ONLY_PARTS || ONLY_PARTS.includes(p.name))) {
      const users = generateUsers(part);
      const tally: Tally = {
        questions: 0,
        current1: 0,
        current1NoDecay: 0,
        current3: 0,
        earlierFirst: 0,
        bm25Current1: 0,
        unchanged: 0,
        old3: 0,
        bm25Old3: 0,
        thenQuestions: 0,
        then1: 0,
        bm25Then1: 0,
      };
      for (const user of users) await measureUser(server.client, user, tally, part.name.startsWith('dev'));
      rows.push([
        part.name,
        String(tally.questions),
        pct(tally.current1 / tally.questions),
        pct(tally.bm25Current1 / tally.questions),
        ratio(tally.current1, tally.bm25Current1),
        pct(tally.current3 / tally.questions),
        pct(tally.earlierFirst / tally.questions),
        pct(tally.old3 / tally.unchanged),
        pct(tally.bm25Old3 / tally.unchanged),
        pct(tally.current1NoDecay / tally.questions),
        `${pct(tally.then1 / tally.thenQuestions)} (${tally.thenQuestions})`,
        pct(tally.bm25Then1 / tally.thenQuestions),
      ]);
    }
    console.log(`${USERS} users per part; the API's defaults (infer on; hybrid search, time decay on)`);
    console.log(
      table(
        [
          'part',
          'changed',
          'current@1',
          'BM25 @1',
          'ratio',
          'current@3',
          'earlier 1st',
          'old@3',
          'BM25 old@3',
          '@1 no decay',
          'then@1 (asked)',
          'BM25 then@1',
        ],
        rows,
      ),
    );
    const adds = summarize(addTimes);
    console.log(
      `adds with the API's defaults (infer on): p50 ${ms(adds.p50)}, p99 ${ms(adds.p99)} over ${addTimes.length} (target p99 < 30 ms)`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureUser(
  client: Awaited<ReturnType<typeof startMemoryServer>>['client'],
  user: GeneratedUser,
  tally: Tally,
  showMisses: boolean,
): Promise<void> {
  for (const [i, s] of user.statements.entries()) {
    const started = performance.now();
    await client.post('/memory/add', {
      user_id: user.id,
      text: s.text,
      created_at: new Date(START + s.day * DAY_MS + i * 1000).toISOString(),
    });
    addTimes.push(performance.now() - started);
  }
  const bm25 = new Bm25Index(user.statements.map((s) => s.text));
  const search = async (q: NowQuestion, extra: Record<string, unknown> = {}) =>
    (
      await client.post<{ results: SearchItem[] }>('/memory/search', {
        user_id: user.id,
        query: q.query,
        ...extra,
      })
    ).results;
  for (const q of user.changed) {
    const results = await search(q);
    tally.questions++;
    if (results[0] && names(results[0].memory, q.current)) tally.current1++;
    else if (showMisses)
      showMiss(`miss: ${q.query} (now ${q.current}; before ${q.earlier.join(', ')})`, results);
    if (results.slice(0, 3).some((r) => names(r.memory, q.current))) tally.current3++;
    if (
      results[0] &&
      q.earlier.some((e) => names(results[0].memory, e)) &&
      !names(results[0].memory, q.current)
    )
      tally.earlierFirst++;
    const [undecayed] = await search(q, { time_decay: false });
    if (undecayed && names(undecayed.memory, q.current)) tally.current1NoDecay++;
    const [best] = bm25.search(q.query, 1);
    if (best !== undefined && names(user.statements[best].text, q.current)) tally.bm25Current1++;
  }
  for (const q of user.unchanged) {
    const results = await search(q);
    tally.unchanged++;
    if (results.slice(0, 3).some((r) => names(r.memory, q.current))) tally.old3++;
    else if (showMisses) showMiss(`old miss: ${q.query} (stated once: ${q.current})`, results);
    if (bm25.search(q.query, 3).some((d) => names(user.statements[d].text, q.current))) tally.bm25Old3++;
  }
  for (const q of user.then) {
    const results = await search(q);
    tally.thenQuestions++;
    if (results[0] && names(results[0].memory, q.current)) tally.then1++;
    else if (showMisses)
      showMiss(`then miss: ${q.query} (then ${q.current}; later ${q.earlier.join(', ')})`, results);
    const [best] = bm25.search(q.query, 1);
    if (best !== undefined && names(user.statements[best].text, q.current)) tally.bm25Then1++;
  }
}

/** A miss of a dev part and its top 3, while BENCH_SHOW_MISSES allows. */
function showMiss(what: string, results: SearchItem[]): void {
  if (shownMisses++ >= SHOW_MISSES) return;
  const top = results
    .slice(0, 3)
    .map((r) => `  ${r.score.toFixed(3)} ${r.created_at.slice(0, 10)} ${r.memory}`);
  console.log([what, ...top].join('\n'));
}

runBench(main);
