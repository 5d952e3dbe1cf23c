/**
 * `npm run bench:locomo-embedders`: the candidate embedding models compared in one run, on LoCoMo
 * (as `bench:locomo` stores and asks it: every turn added with infer=false, one user per conversation,
 * created_at from the session; recall of the evidence turns in the top 10, time_decay off) and on the
 * tests' held-out paraphrase checks (test/integration/memory/embedder.test.ts, memory-api.test.ts).
 *
 * Per candidate: semantic and hybrid R@10 overall and by category, their ratio to BM25 (k1 1.2,
 * b 0.75, computed here on the same memories), the checks passed and their smallest margin, the
 * query embedding's p50/p99 (timed alone, one question at a time, as a search embeds it), hybrid
 * search's p50/p99 in-process, and the add rate. Each candidate runs in a child process of its own
 * (a fresh data directory, the model's worker the only one), one after the other.
 *
 * BENCH_EMBEDDERS: comma-separated models of shared/embedding-models.ts; `<model>:noprefix` runs a
 * model without its query prefix (default all-MiniLM-L6-v2,bge-small-en-v1.5,
 * bge-small-en-v1.5:noprefix,e5-small-v2). BENCH_CONVERSATIONS=N (default 10).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { embeddingModelDir } from '../domain/memory/embedding/default-embedder';
import { LocalOnnxEmbedder } from '../domain/memory/embedding/local-onnx-embedder';
import { EMBEDDING_MODELS, type EmbeddingModelKey } from '../shared/embedding-models';
import { createMemoryService } from '../gateway/memory/memory-service-wiring';
import { addMemoryRequestSchema, searchRequestSchema } from '../shared/memory-requests';
import { Bm25Index } from './lib/bm25';
import { envInt, loadLine, machineLine, ms, pct, ratio, summarize, table, runBench } from './lib/bench-stats';
import { CATEGORY_NAMES, evidenceIds, loadSamples, memoryText, sessions } from './lib/locomo-data';
import { benchConfig } from './lib/memory-server';

const CONVERSATIONS = envInt('BENCH_CONVERSATIONS', 10);
const CANDIDATES = (
  process.env.BENCH_EMBEDDERS ?? 'all-MiniLM-L6-v2,bge-small-en-v1.5,bge-small-en-v1.5:noprefix,e5-small-v2'
)
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const TOP_K = 10;
const DAY_MS = 86_400_000;
const MODES = ['semantic', 'hybrid', 'bm25'] as const;
type Mode = (typeof MODES)[number];

/** Held-out checks from the tests: the query's own passage must rank first among the others. */
const CHECKS: { query: string; answer: string; others: string[] }[] = [
  {
    query: 'How do I reset my password?',
    answer: 'I forgot my login password and need to change it.',
    others: ['The train to Berlin leaves at noon.'],
  },
  {
    query: 'My dog loves playing fetch in the park.',
    answer: 'The puppy enjoys chasing a ball outside.',
    others: ['The central bank raised interest rates again.'],
  },
  {
    query: 'The user prefers vegetarian dishes.',
    answer: 'They like to eat meals without meat.',
    others: ['The deployment failed because the disk was full.'],
  },
  {
    query: 'how do we ship the backend to prod?',
    answer: 'The production API is deployed with blue-green releases on Fridays.',
    others: [
      'Our cat Miso only eats salmon flavoured food.',
      'Invoices are sent to customers on the first business day of each month.',
    ],
  },
  {
    query: 'when do customers get billed?',
    answer: 'Invoices are sent to customers on the first business day of each month.',
    others: [
      'The production API is deployed with blue-green releases on Fridays.',
      'Our cat Miso only eats salmon flavoured food.',
    ],
  },
  {
    query: 'which herb do I dislike?',
    answer: "I can't stand cilantro, keep it out of every recipe.",
    others: [
      'Replacement cartridge QX-4471 fits the basement dehumidifier.',
      'Change the furnace air filter every three months.',
      'Coffee filter papers are in the top kitchen drawer.',
      'The dog walker comes every weekday at noon.',
    ],
  },
  {
    query: 'who do I call at night?',
    answer: 'The on-call phone number is 555-0142.',
    others: [
      'The dog walker comes every weekday at noon.',
      'Coffee filter papers are in the top kitchen drawer.',
    ],
  },
];

interface CandidateResult {
  candidate: string;
  embedder: string;
  questions: number;
  recall: Record<Mode, number>;
  byCategory: Record<string, { questions: number } & Record<Mode, number>>;
  checksPassed: number;
  checksMinMargin: number;
  queryEmbed: { p50: number; p99: number };
  hybridSearch: { p50: number; p99: number };
  addsPerSecond: number;
}

function candidateEmbedder(candidate: string): LocalOnnxEmbedder {
  const [key, variant] = candidate.split(':');
  const spec = EMBEDDING_MODELS[key as EmbeddingModelKey];
  if (!spec)
    throw new Error(`unknown embedding model ${key} (known: ${Object.keys(EMBEDDING_MODELS).join(', ')})`);
  if (variant && variant !== 'noprefix') throw new Error(`unknown variant ${variant} (known: noprefix)`);
  const model = variant === 'noprefix' ? { ...spec, queryPrefix: '' } : spec;
  return new LocalOnnxEmbedder({ modelsDir: embeddingModelDir(benchConfig()), model, batchSize: 1 });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

/** One candidate, in this (child) process. */
async function measure(candidate: string): Promise<CandidateResult> {
  const embedder = candidateEmbedder(candidate);
  await embedder.embed(['warm up'], 'query');

  let passed = 0;
  let minMargin = Infinity;
  for (const check of CHECKS) {
    const [q] = await embedder.embed([check.query], 'query');
    const [answer, ...others] = await embedder.embed([check.answer, ...check.others]);
    const margin = dot(q, answer) - Math.max(...others.map((o) => dot(q, o)));
    if (margin > 0) passed++;
    minMargin = Math.min(minMargin, margin);
  }

  const samples = loadSamples(CONVERSATIONS);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-locomo-embedders-'));
  let clock: Date | undefined;
  const service = await createMemoryService(
    path.join(scratch, 'data'),
    { ...benchConfig(), PLAT_EMBEDDING_MODEL: embedder.model.key as EmbeddingModelKey },
    { embedder, now: () => clock ?? new Date() },
  );
  try {
    const sum: Record<string, { questions: number } & Record<Mode, number>> = {};
    const overall = { questions: 0, semantic: 0, hybrid: 0, bm25: 0 };
    const embedTimes: number[] = [];
    const searchTimes: number[] = [];
    let adds = 0;
    let addSeconds = 0;
    for (const sample of samples) {
      const user = `locomo-${sample.sample_id}`;
      const memoryOfTurn = new Map<string, string>();
      const docs: { id: string; text: string }[] = [];
      const all = sessions(sample);
      const started = performance.now();
      for (const session of all) {
        for (const [i, turn] of session.turns.entries()) {
          const text = memoryText(turn);
          const res = await service.add(
            addMemoryRequestSchema.parse({
              user_id: user,
              text,
              infer: false,
              created_at: new Date(session.date.getTime() + i * 1000).toISOString(),
              metadata: { dia_id: turn.dia_id },
            }),
          );
          const result = res.results[0];
          memoryOfTurn.set(turn.dia_id, result.id);
          if (result.event === 'ADD') docs.push({ id: result.id, text });
          adds++;
        }
      }
      addSeconds += (performance.now() - started) / 1000;
      const bm25 = new Bm25Index(docs.map((d) => d.text));
      clock = new Date(all[all.length - 1].date.getTime() + DAY_MS);
      for (const qa of sample.qa) {
        const wanted = [
          ...new Set(
            evidenceIds(qa.evidence)
              .map((id) => memoryOfTurn.get(id))
              .filter((m): m is string => m !== undefined),
          ),
        ];
        if (!wanted.length) continue;
        const t0 = performance.now();
        await embedder.embed([qa.question], 'query');
        embedTimes.push(performance.now() - t0);
        const search = async (mode: 'semantic' | 'hybrid') => {
          const t = performance.now();
          const { results } = await service.search(
            searchRequestSchema.parse({
              user_id: user,
              query: qa.question,
              top_k: TOP_K,
              time_decay: false,
              search_mode: mode,
            }),
          );
          if (mode === 'hybrid') searchTimes.push(performance.now() - t);
          return results.map((r) => r.id);
        };
        const ranked: Record<Mode, string[]> = {
          semantic: await search('semantic'),
          hybrid: await search('hybrid'),
          bm25: bm25.search(qa.question, TOP_K).map((d) => docs[d].id),
        };
        const name = CATEGORY_NAMES[qa.category] ?? String(qa.category);
        const cat = (sum[name] ??= { questions: 0, semantic: 0, hybrid: 0, bm25: 0 });
        for (const t of [cat, overall]) {
          t.questions++;
          for (const m of MODES) {
            const top = new Set(ranked[m].slice(0, TOP_K));
            t[m] += wanted.filter((id) => top.has(id)).length / wanted.length;
          }
        }
      }
      clock = undefined;
    }
    const share = (t: { questions: number } & Record<Mode, number>) => ({
      questions: t.questions,
      semantic: t.semantic / t.questions,
      hybrid: t.hybrid / t.questions,
      bm25: t.bm25 / t.questions,
    });
    const e = summarize(embedTimes);
    const s = summarize(searchTimes);
    return {
      candidate,
      embedder: embedder.id,
      questions: overall.questions,
      recall: share(overall),
      byCategory: Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, share(v)])),
      checksPassed: passed,
      checksMinMargin: minMargin,
      queryEmbed: { p50: e.p50, p99: e.p99 },
      hybridSearch: { p50: s.p50, p99: s.p99 },
      addsPerSecond: adds / addSeconds,
    };
  } finally {
    await service.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function runChild(candidate: string): Promise<CandidateResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, __filename], {
      env: { ...process.env, BENCH_EMBEDDER_CHILD: candidate },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as CandidateResult);
      else reject(new Error(`candidate ${candidate} failed (exit ${code}):\n${out}`));
    });
  });
}

async function main(): Promise<void> {
  const child = process.env.BENCH_EMBEDDER_CHILD;
  if (child) {
    console.log(`RESULT ${JSON.stringify(await measure(child))}`);
    return;
  }
  console.log(machineLine());
  console.log(
    `LoCoMo, ${CONVERSATIONS} conversation(s), top_k ${TOP_K}, time_decay off; candidates: ${CANDIDATES.join(', ')}`,
  );
  const results: CandidateResult[] = [];
  for (const candidate of CANDIDATES) {
    const started = performance.now();
    const r = await runChild(candidate);
    console.log(`  ${candidate}: ${((performance.now() - started) / 1000).toFixed(0)} s; ${loadLine()}`);
    results.push(r);
  }
  const bm25 = results[0].recall.bm25;
  console.log(
    `\n${results[0].questions} questions; BM25 R@10 ${pct(bm25)} (same memories, same questions)\n`,
  );
  console.log(
    table(
      [
        'candidate',
        'semantic R@10',
        'vs BM25',
        'hybrid R@10',
        'vs BM25',
        'checks',
        'min margin',
        'query embed p50/p99 ms',
        'hybrid search p50/p99 ms',
        'adds/s',
      ],
      results.map((r) => [
        r.candidate,
        pct(r.recall.semantic),
        ratio(r.recall.semantic, bm25),
        pct(r.recall.hybrid),
        ratio(r.recall.hybrid, bm25),
        `${r.checksPassed}/${CHECKS.length}`,
        r.checksMinMargin.toFixed(3),
        `${ms(r.queryEmbed.p50)} / ${ms(r.queryEmbed.p99)}`,
        `${ms(r.hybridSearch.p50)} / ${ms(r.hybridSearch.p99)}`,
        r.addsPerSecond.toFixed(0),
      ]),
    ),
  );
  const categories = Object.keys(results[0].byCategory);
  console.log('\nR@10 by category, semantic / hybrid:\n');
  console.log(
    table(
      ['candidate', ...categories],
      [
        ...results.map((r) => [
          r.candidate,
          ...categories.map((c) => `${pct(r.byCategory[c].semantic)} / ${pct(r.byCategory[c].hybrid)}`),
        ]),
        ['BM25', ...categories.map((c) => pct(results[0].byCategory[c].bm25))],
      ],
    ),
  );
  for (const r of results) console.log(`${r.candidate}: ${r.embedder}`);
  console.log(loadLine());
}

runBench(main);
