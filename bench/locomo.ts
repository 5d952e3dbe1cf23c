/**
 * `npm run bench:locomo`: retrieval quality of the memory service on LoCoMo
 * (/work/shared/datasets/locomo/locomo10.json, see its SOURCE.md), through the real HTTP API
 * (createMemoryApp on an ephemeral loopback port, fresh data directory, real embedding model).
 *
 * Every turn is stored as in bench/lib/locomo-data.ts. Then each QA question is searched (top_k 10)
 * and recall@5 / recall@10 of its evidence turns is computed (share of the evidence dia_ids whose
 * memory is in the first k results, averaged over questions), by category and overall, for each
 * search_mode (semantic, lexical, hybrid), each with time_decay false and true. The service's clock
 * is the day after the conversation's last session (at the real date every turn is years old: decay
 * weights would be ~0, and "last week" would name a week after the talk). Overall figures are also
 * given for conversations 1–3 (where the calibration was fitted, bench/locomo-fit.ts) and 4–10.
 *
 * Baseline in the same run: BM25 (k1 1.2, b 0.75, lower-cased word tokens) over the same stored
 * memories of the conversation, same questions, top 10.
 *
 * `min_score`: for the default search (hybrid, decay on), the share of the evidence in the top 10
 * whose calibrated relevance (`signals.relevance`, what min_score applies to) reaches each threshold, and the share of the other results it
 * drops.
 *
 * BENCH_CONVERSATIONS=N limits the run to the first N conversations (default all 10).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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
import {
  CATEGORY_NAMES,
  DATASET,
  evidenceMemories,
  loadSamples,
  questionClock,
  storeConversations,
} from './lib/locomo-data';
import { benchConfig, startMemoryServer, type SearchItem } from './lib/memory-server';

const CONVERSATIONS = envInt('BENCH_CONVERSATIONS', 10);
const TOP_K = 10;
/** Conversations 1–3 are the calibration's dev split (bench/locomo-fit.ts). */
const DEV_CONVERSATIONS = 3;
const MIN_SCORES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];

/** What is measured per question: the service in each search mode, without and with decay, and the baseline. */
const MODES = ['semantic', 'lexical', 'hybrid'] as const;
/**
 * Hybrid with each fusion stage alone (search/search-stages.ts, through PLAT_MEMORY_SEARCH_STAGES,
 * read per search by the in-process service): none (fusion only), each one, and all (the default).
 */
const STAGE_VARIANTS = [
  ['fusion', 'none'],
  ['+dates', 'dates'],
  ['+neighbours', 'neighbours'],
  ['+rerank', 'rerank'],
] as const;
type StageVariant = (typeof STAGE_VARIANTS)[number][0];
const METHODS = [
  'semantic',
  'semanticDecay',
  'lexical',
  'lexicalDecay',
  'hybrid',
  'hybridDecay',
  'bm25',
  ...STAGE_VARIANTS.flatMap(([v]) => [v, `${v}Decay`] as const),
] as const;
type Method = (typeof METHODS)[number];
/** The columns of the main table; the stage variants have their own. */
const MAIN_METHODS = METHODS.slice(0, 7);
const METHOD_LABEL: Record<Method, string> = {
  semantic: 'semantic',
  semanticDecay: 'semantic+decay',
  lexical: 'lexical',
  lexicalDecay: 'lexical+decay',
  hybrid: 'hybrid',
  hybridDecay: 'hybrid+decay',
  bm25: 'BM25',
  ...(Object.fromEntries(
    STAGE_VARIANTS.flatMap(([v]) => [
      [v, `hybrid ${v}`],
      [`${v}Decay`, `hybrid ${v}+decay`],
    ]),
  ) as Record<`${StageVariant}` | `${StageVariant}Decay`, string>),
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

/** Per threshold: evidence in the top 10 kept, other results dropped. */
class MinScoreTally {
  evidence: number[] = [];
  others: number[] = [];

  add(wanted: string[], results: SearchItem[]): void {
    for (const r of results)
      // What min_score applies to: the calibrated relevance (docs/memory-search.md#now-and-then).
      (wanted.includes(r.id) ? this.evidence : this.others).push(
        r.signals?.relevance ?? r.original_score ?? r.score,
      );
  }

  line(threshold: number): string[] {
    const share = (xs: number[], keep: boolean) =>
      xs.length ? xs.filter((x) => x >= threshold === keep).length / xs.length : NaN;
    return [threshold.toFixed(1), pct(share(this.evidence, true)), pct(share(this.others, false))];
  }
}

async function main(): Promise<void> {
  console.log(machineLine());
  const samples = loadSamples(CONVERSATIONS);
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
    const conversations = await storeConversations(server.client, samples);

    const byCategory = new Map<number, Tally>();
    const overall = new Tally();
    const dev = new Tally();
    const heldOut = new Tally();
    const minScores = new MinScoreTally();
    const searchTimes: Record<string, number[]> = {};
    const bm25Times: number[] = [];
    let skipped = 0;
    for (const conversation of conversations) {
      const { sample, user, docs } = conversation;
      const bm25 = new Bm25Index(docs.map((d) => d.text));
      for (const qa of sample.qa) {
        const wanted = evidenceMemories(conversation, qa);
        if (!wanted.length) {
          skipped++;
          continue;
        }
        // The service's clock: the day after the conversation's last session (see the file comment).
        clock = questionClock(conversation);
        const search = async (mode: string, timeDecay: boolean, stages?: string) => {
          if (stages) process.env.PLAT_MEMORY_SEARCH_STAGES = stages;
          else delete process.env.PLAT_MEMORY_SEARCH_STAGES;
          const [took, res] = await timed(() =>
            server.client.post<{ results: SearchItem[] }>('/memory/search', {
              query: qa.question,
              user_id: user,
              top_k: TOP_K,
              time_decay: timeDecay,
              search_mode: mode,
            }),
          );
          (searchTimes[`${mode}${stages ? ` (${stages})` : ''}${timeDecay ? ' + decay' : ''}`] ??= []).push(
            took,
          );
          return res.results;
        };
        const ranked = {} as Record<Method, string[]>;
        for (const mode of MODES) {
          ranked[mode] = (await search(mode, false)).map((r) => r.id);
          const decayed = await search(mode, true);
          ranked[`${mode}Decay`] = decayed.map((r) => r.id);
          if (mode === 'hybrid') minScores.add(wanted, decayed);
        }
        for (const [variant, stages] of STAGE_VARIANTS) {
          ranked[variant] = (await search('hybrid', false, stages)).map((r) => r.id);
          ranked[`${variant}Decay`] = (await search('hybrid', true, stages)).map((r) => r.id);
        }
        delete process.env.PLAT_MEMORY_SEARCH_STAGES;
        clock = undefined;
        const [bmMs, bmTop] = await timed(() => bm25.search(qa.question, TOP_K));
        bm25Times.push(bmMs);
        ranked.bm25 = bmTop.map((d) => docs[d].id);
        let tally = byCategory.get(qa.category);
        if (!tally) byCategory.set(qa.category, (tally = new Tally()));
        const split = conversation.index < DEV_CONVERSATIONS ? dev : heldOut;
        for (const t of [tally, overall, split]) {
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
      ...MAIN_METHODS.flatMap((m) => [pct(t.recall(m, 5)), pct(t.recall(m, 10))]),
    ];
    const stageMethods = [
      ...STAGE_VARIANTS.map(([v]) => v),
      'hybrid',
      ...STAGE_VARIANTS.map(([v]) => `${v}Decay` as const),
      'hybridDecay',
      'bm25',
    ] as const satisfies readonly Method[];
    const stageLine = (name: string, t: Tally) => [
      name,
      String(t.questions),
      ...stageMethods.map((m) => pct(t.recall(m, 10))),
    ];
    console.log(
      `\nrecall of evidence turns, top_k ${TOP_K}: POST /memory/search by search_mode, without and with time_decay ` +
        '(clock at the day after the last session); BM25 baseline on the same memories\n',
    );
    const splits = heldOut.questions
      ? [
          line(`conv. 1-${DEV_CONVERSATIONS} (dev)`, dev),
          line(`conv. ${DEV_CONVERSATIONS + 1}-${conversations.length}`, heldOut),
        ]
      : [];
    console.log(
      table(
        [
          'category',
          'questions',
          ...MAIN_METHODS.flatMap((m) => [`${METHOD_LABEL[m]} R@5`, `${METHOD_LABEL[m]} R@10`]),
        ],
        [...rows.map(([name, t]) => line(name, t)), line('overall', overall), ...splits],
      ),
    );
    console.log(
      '\nhybrid R@10 by fusion stage (each alone; hybrid = all, the default), without and with time_decay\n',
    );
    const stageSplits = heldOut.questions
      ? [
          stageLine(`conv. 1-${DEV_CONVERSATIONS} (dev)`, dev),
          stageLine(`conv. ${DEV_CONVERSATIONS + 1}-${conversations.length}`, heldOut),
        ]
      : [];
    console.log(
      table(
        ['category', 'questions', ...stageMethods.map((m) => METHOD_LABEL[m])],
        [...rows.map(([name, t]) => stageLine(name, t)), stageLine('overall', overall), ...stageSplits],
      ),
    );
    const vsBm25 = (t: Tally) => (m: Method) =>
      `${METHOD_LABEL[m]} ${ratio(t.recall(m, 10), t.recall('bm25', 10))}`;
    const services = METHODS.filter((m) => m !== 'bm25');
    // (stage variants included: each alone vs BM25)
    console.log(`\nR@10 / BM25 overall: ${services.map(vsBm25(overall)).join('; ')}`);
    if (heldOut.questions)
      console.log(
        `R@10 / BM25 held-out (conv. ${DEV_CONVERSATIONS + 1}+): ${services.map(vsBm25(heldOut)).join('; ')}`,
      );
    const target = (m: Method, x: number) =>
      `${METHOD_LABEL[m]} R@10 >= ${x}x BM25: ${overall.recall(m, 10) >= x * overall.recall('bm25', 10) ? 'met' : 'NOT met'}`;
    const below = (m: Method) =>
      rows.filter(([, t]) => t.recall(m, 10) < t.recall('bm25', 10)).map(([name]) => name);
    console.log(`targets: ${target('hybrid', 1.4)}; ${target('hybridDecay', 1.0)}`);
    for (const m of ['hybrid', 'hybridDecay'] as const)
      console.log(`categories where ${METHOD_LABEL[m]} R@10 < BM25: ${below(m).join(', ') || 'none'}`);
    console.log(
      `what decay costs: hybrid R@10 ${pct(overall.recall('hybrid', 10))} -> ${pct(overall.recall('hybridDecay', 10))} with time_decay on`,
    );
    console.log(
      `\nmin_score on the default search (hybrid, decay on, top_k ${TOP_K}): ${minScores.evidence.length} evidence ` +
        `and ${minScores.others.length} other results, by their calibrated relevance (signals.relevance)\n`,
    );
    console.log(
      table(
        ['min_score', 'evidence kept', 'others dropped'],
        MIN_SCORES.map((t) => minScores.line(t)),
      ),
    );
    console.log(`\n${skipped} question(s) skipped (no evidence dia_id that resolves to a stored turn)`);
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
