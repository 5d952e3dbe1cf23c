/**
 * `npm run bench:locomo`: retrieval quality of the memory service on LoCoMo
 * (/work/shared/datasets/locomo/locomo10.json, see its SOURCE.md), through the real HTTP API
 * (createMemoryApp on an ephemeral loopback port, fresh data directory, real embedding model).
 *
 * Every dialogue turn is stored with POST /memory/add (infer=false, one user per conversation,
 * created_at = the session's date and time + the turn's index in seconds, text "<speaker>: <text>"
 * plus " [shared an image: <blip_caption>]" when the turn has an image, metadata with the dia_id).
 * Then each QA question is searched (top_k 10) and recall@5 / recall@10 of its evidence turns is
 * computed (share of the evidence dia_ids whose memory is in the first k results, averaged over
 * questions), by category and overall:
 *   - search_mode semantic, lexical and hybrid, time_decay false;
 *   - hybrid with time_decay true.
 * The service's clock is the day after the conversation's last session (at the real date every turn
 * is years old: decay weights would be ~0, and "last week" would name a week after the talk).
 * Baseline in the same run: BM25 (k1 1.2, b 0.75, lower-cased word tokens) over the same stored
 * memories of the conversation, same questions, top 10.
 *
 * Duplicate turns (same normalized text from the same speaker) are one memory: the add answers the
 * existing id, and that memory stands for every turn it covers, for BM25 as for the service.
 *
 * BENCH_CONVERSATIONS=N limits the run to the first N conversations (default all 10).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot } from '../shared/paths';
import { Bm25Index } from './lib/bm25';
import {
  envInt,
  loadLine,
  machineLine,
  ms,
  pct,
  ratio,
  summarize,
  table,
  timed,
  runBench,
} from './lib/bench-stats';
import { benchConfig, startMemoryServer, type AddResponse, type SearchItem } from './lib/memory-server';
import { MONTHS } from '../domain/memory/search/time-expressions';

const DATASET = path.resolve(repoRoot, '..', 'shared', 'datasets', 'locomo', 'locomo10.json');
const CONVERSATIONS = envInt('BENCH_CONVERSATIONS', 10);
const TOP_K = 10;
const DAY_MS = 86_400_000;

/**
 * The category numbers of locomo10.json. SOURCE.md names only 5 (adversarial); 1–4 follow the
 * upstream evaluation code (snap-research/locomo task_eval), whose numbering differs from the
 * order the paper lists the types in.
 */
const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface Qa {
  question: string;
  evidence: string[];
  category: number;
}

interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Qa[];
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
function sessions(sample: Sample): { n: number; date: Date; turns: Turn[] }[] {
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

const memoryText = (t: Turn) =>
  `${t.speaker}: ${t.text}${t.blip_caption ? ` [shared an image: ${t.blip_caption}]` : ''}`;

/** Evidence refs as clean dia_ids ("D8:6; D9:17" → two, "D:11:26" → D11:26, "D" → none). */
function evidenceIds(evidence: string[]): string[] {
  const ids = evidence
    .flatMap((e) => String(e).split(/[;,\s]+/))
    .map((e) => /^D:?(\d+):(\d+)$/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `D${m[1]}:${m[2]}`);
  return [...new Set(ids)];
}

/** What is measured per question: the service in each search mode, with decay, and the baseline. */
const METHODS = ['semantic', 'lexical', 'hybrid', 'hybridDecay', 'bm25'] as const;
type Method = (typeof METHODS)[number];
const METHOD_LABEL: Record<Method, string> = {
  semantic: 'semantic',
  lexical: 'lexical',
  hybrid: 'hybrid',
  hybridDecay: 'hybrid+decay',
  bm25: 'BM25',
};

class Tally {
  questions = 0;
  readonly sum = Object.fromEntries(METHODS.map((m) => [m, { r5: 0, r10: 0 }])) as Record<
    Method,
    { r5: number; r10: number }
  >;

  add(method: Method, evidence: string[], ranked: string[]): void {
    const at = (k: number) => {
      const top = new Set(ranked.slice(0, k));
      return evidence.filter((m) => top.has(m)).length / evidence.length;
    };
    this.sum[method].r5 += at(5);
    this.sum[method].r10 += at(10);
  }

  recall(method: Method, k: 5 | 10): number {
    return this.questions ? this.sum[method][k === 5 ? 'r5' : 'r10'] / this.questions : NaN;
  }
}

async function main(): Promise<void> {
  console.log(machineLine());
  const samples = (JSON.parse(fs.readFileSync(DATASET, 'utf8')) as Sample[]).slice(0, CONVERSATIONS);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-locomo-'));
  let clock: Date | undefined;
  const server = await startMemoryServer(path.join(scratch, 'data'), benchConfig(), {
    now: () => clock ?? new Date(),
  });
  try {
    console.log(
      `LoCoMo: ${samples.length} conversation(s) from ${path.relative(repoRoot, DATASET)}, through HTTP at ${server.base} ` +
        `(fresh data directory, embedder ${server.service.embedderId})`,
    );

    // 1. Store every turn.
    const perConversation: {
      sample: Sample;
      user: string;
      memoryOfTurn: Map<string, string>;
      docs: { id: string; text: string }[];
      lastSession: Date;
    }[] = [];
    const addTimes: number[] = [];
    let turns = 0;
    let duplicates = 0;
    const ingestStarted = performance.now();
    for (const sample of samples) {
      const user = `locomo-${sample.sample_id}`;
      const memoryOfTurn = new Map<string, string>();
      const docs: { id: string; text: string }[] = [];
      const all = sessions(sample);
      for (const session of all) {
        for (const [i, turn] of session.turns.entries()) {
          const text = memoryText(turn);
          const [took, res] = await timed(() =>
            server.client.post<AddResponse>('/memory/add', {
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
      perConversation.push({ sample, user, memoryOfTurn, docs, lastSession: all[all.length - 1].date });
    }
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    const adds = summarize(addTimes);
    console.log(
      `stored ${turns} turns as ${turns - duplicates} memories (${duplicates} exact duplicates answered NONE) in ` +
        `${ingestSeconds.toFixed(1)} s: ${(turns / ingestSeconds).toFixed(0)} adds/s, add p50 ${ms(adds.p50)} ms, p99 ${ms(adds.p99)} ms`,
    );

    // 2. Ask every question.
    const byCategory = new Map<number, Tally>();
    const overall = new Tally();
    const searchTimes: Record<string, number[]> = {};
    const bm25Times: number[] = [];
    let skipped = 0;
    for (const { sample, user, memoryOfTurn, docs, lastSession } of perConversation) {
      const bm25 = new Bm25Index(docs.map((d) => d.text));
      for (const qa of sample.qa) {
        const evidence = evidenceIds(qa.evidence)
          .map((id) => memoryOfTurn.get(id))
          .filter((m): m is string => m !== undefined);
        const wanted = [...new Set(evidence)];
        if (!wanted.length) {
          skipped++;
          continue;
        }
        // The service's clock: the day after the conversation's last session (see the file comment).
        clock = new Date(lastSession.getTime() + DAY_MS);
        const search = async (mode: string, timeDecay: boolean) => {
          const [took, res] = await timed(() =>
            server.client.post<{ results: SearchItem[] }>('/memory/search', {
              query: qa.question,
              user_id: user,
              top_k: TOP_K,
              time_decay: timeDecay,
              search_mode: mode,
            }),
          );
          (searchTimes[mode] ??= []).push(took);
          return res.results.map((r) => r.id);
        };
        const ranked: Record<Method, string[]> = {
          semantic: await search('semantic', false),
          lexical: await search('lexical', false),
          hybrid: await search('hybrid', false),
          hybridDecay: await search('hybrid', true),
          bm25: [],
        };
        clock = undefined;
        const [bmMs, bmTop] = await timed(() => bm25.search(qa.question, TOP_K));
        bm25Times.push(bmMs);
        ranked.bm25 = bmTop.map((d) => docs[d].id);
        let tally = byCategory.get(qa.category);
        if (!tally) byCategory.set(qa.category, (tally = new Tally()));
        for (const t of [tally, overall]) {
          t.questions++;
          for (const m of METHODS) t.add(m, wanted, ranked[m]);
        }
      }
    }

    const rows = [...byCategory.entries()]
      .sort(([a], [b]) => a - b)
      .map(([category, t]) => [`${category} ${CATEGORY_NAMES[category] ?? '?'}`, t] as const);
    const line = (name: string, t: Tally) => [
      name,
      String(t.questions),
      ...METHODS.flatMap((m) => [pct(t.recall(m, 5)), pct(t.recall(m, 10))]),
    ];
    console.log(
      `\nrecall of evidence turns, top_k ${TOP_K}: POST /memory/search by search_mode with time_decay false, ` +
        'hybrid+decay = hybrid with time_decay true at the day after the last session; BM25 baseline on the same memories\n',
    );
    console.log(
      table(
        [
          'category',
          'questions',
          ...METHODS.flatMap((m) => [`${METHOD_LABEL[m]} R@5`, `${METHOD_LABEL[m]} R@10`]),
        ],
        [...rows.map(([name, t]) => line(name, t)), line('overall', overall)],
      ),
    );
    const vsBm25 = (m: Method) =>
      `${METHOD_LABEL[m]} R@5 ${ratio(overall.recall(m, 5), overall.recall('bm25', 5))}, R@10 ${ratio(overall.recall(m, 10), overall.recall('bm25', 10))}`;
    console.log(
      `\nratio to BM25 overall: ${(['semantic', 'lexical', 'hybrid', 'hybridDecay'] as const).map(vsBm25).join('; ')}`,
    );
    const below = rows.filter(([, t]) => t.recall('hybrid', 10) < t.recall('bm25', 10)).map(([name]) => name);
    const target = overall.recall('hybrid', 10) >= 1.2 * overall.recall('bm25', 10);
    console.log(
      `target hybrid R@10 >= 1.2x BM25: ${target ? 'met' : 'NOT met'}; categories where hybrid R@10 < BM25: ${below.length ? below.join(', ') : 'none'}`,
    );
    console.log(
      `what decay costs: hybrid R@10 ${pct(overall.recall('hybrid', 10))} -> ${pct(overall.recall('hybridDecay', 10))} with time_decay on`,
    );
    console.log(`${skipped} question(s) skipped (no evidence dia_id that resolves to a stored turn)`);
    for (const [mode, times] of Object.entries(searchTimes)) {
      const s = summarize(times);
      console.log(`search_mode ${mode} over HTTP (${s.n} calls): p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms`);
    }
    const b = summarize(bm25Times);
    console.log(`BM25 baseline in-process: p50 ${ms(b.p50, 3)} ms, p99 ${ms(b.p99, 3)} ms`);
    console.log(loadLine());
  } finally {
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

runBench(main);
