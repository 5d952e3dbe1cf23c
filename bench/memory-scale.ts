/**
 * `npm run bench:memory-scale`: the memory service with a million memories: 1,000 users (one with
 * 100,000 memories, 999 with ~900 each) plus 10,000 in user `shared`, in the embedded store.
 *
 * Measured, each in a fresh child process (bench/lib/memory-scale-server.ts) on a scratch copy of
 * the filled data directory:
 *   - start-up: spawn to answering (store open, model warm-up, HTTP; a user's indexes load on its
 *     first request), and to every user's indexes loaded in the background;
 *   - resident memory once every user is indexed; per million memories = (RSS − RSS of the same
 *     service on an empty data directory) / millions of memories;
 *   - after that, POST /memory/search p50/p99 (hybrid, the default; top_k 10; embedding included) for users with
 *     ~900 memories (a different one each query) and for the user with 100,000;
 *   - POST /memory/add p50/p99 (infer false: embed, duplicate check, insert) for both kinds of user.
 * Baselines in the same run: reading every row from the database and nothing else (the floor of
 * any start-up from it), and the service's start on an empty data directory.
 * Targets (issue #14): start < 15 s, search p99 < 25 ms, add p99 < 30 ms.
 *
 * Memory texts are the generated sentences of bench:memory-search (embedded by the real model once
 * and cached under .data/bench/memory-vectors/); small users draw theirs from the same pool. The
 * filled directory is cached as .data/bench/memory-scale-<total>/.
 *
 * BENCH_BIG=100000  BENCH_SMALL_USERS=999  BENCH_SMALL_SIZE=901  BENCH_SHARED=10000
 * BENCH_QUERIES=300  BENCH_ADDS=200  BENCH_WARMUP=30
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as readline from 'node:readline';
import { closeMemoryDb, openMemoryDb } from '../domain/memory/store/memory-db';
import { repoRoot } from '../shared/paths';
import {
  envInt,
  loadLine,
  machineLine,
  ms,
  ratio,
  seededRandom,
  summarize,
  table,
  timed,
  type Summary,
  runBench,
} from './lib/bench-stats';
import { cachedVectors, fillDataDir, type FillGroup } from './lib/memory-fill';
import { memorySentences, questionSentences } from './lib/memory-sentences';
import {
  benchConfig,
  jsonClient,
  serviceEmbedder,
  type AddResponse,
  type SearchItem,
} from './lib/memory-server';

const BIG = envInt('BENCH_BIG', 100_000);
const SMALL_USERS = envInt('BENCH_SMALL_USERS', 999);
const SMALL_SIZE = envInt('BENCH_SMALL_SIZE', 901);
const SHARED = envInt('BENCH_SHARED', 10_000);
const QUERIES = envInt('BENCH_QUERIES', 300);
const ADDS = envInt('BENCH_ADDS', 200);
const WARMUP = envInt('BENCH_WARMUP', 30);
const TARGET = { start_s: 15, search_p99: 25, add_p99: 30 };
const BIG_USER = 'big';
const smallUser = (i: number) => `user-${String(i).padStart(4, '0')}`;

interface Child {
  /** Each report line with the wall time from spawn to it. */
  reports: { line: Record<string, number | string>; wall_ms: number }[];
  stop(): void;
}

/** Runs memory-scale-server in `mode` on `dataDir` and waits for its `lines` report lines. */
async function child(mode: 'serve' | 'read', dataDir: string, lines: number): Promise<Child> {
  const started = performance.now();
  const proc: ChildProcess = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      path.join(repoRoot, 'bench', 'lib', 'memory-scale-server.ts'),
      mode,
      dataDir,
    ],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const reports: Child['reports'] = [];
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      reports.push({
        line: JSON.parse(line) as Record<string, number | string>,
        wall_ms: performance.now() - started,
      });
      if (reports.length === lines) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`memory-scale-server ${mode} exited with ${code}`)));
  });
  return { reports, stop: () => proc.stdin!.end() };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function main(): Promise<void> {
  console.log(machineLine());
  const config = benchConfig();
  const embedder = serviceEmbedder(config);
  await embedder.embed(['warm up']);
  const dims = embedder.dimensions;

  const pool = memorySentences(BIG, 1);
  const sharedSentences = memorySentences(SHARED, 2);
  const vectors = await cachedVectors('user', pool, embedder);
  const sharedVectors = await cachedVectors('shared', sharedSentences, embedder);
  const random = seededRandom(42);
  const draw = () => Int32Array.from({ length: SMALL_SIZE }, () => Math.floor(random() * BIG));
  const groups: FillGroup[] = [
    { userId: BIG_USER, texts: pool, vectors },
    ...Array.from({ length: SMALL_USERS }, (_, i) => ({
      userId: smallUser(i),
      texts: pool,
      vectors,
      // Distinct rows per user, as a user's store deduplicates exact repeats.
      rows: Int32Array.from(new Set(draw())),
    })),
    { userId: 'shared', texts: sharedSentences, vectors: sharedVectors },
  ];
  const total = groups.reduce((n, g) => n + (g.rows?.length ?? g.texts.length), 0);
  const filled = await fillDataDir({
    name: `memory-scale-${total}`,
    key: `${BIG}:${SMALL_USERS}x${SMALL_SIZE}:${SHARED}`,
    groups,
    embedderId: embedder.id,
    dims,
    seed: 42,
  });
  console.log(
    `${total} memories: user ${BIG_USER} ${BIG}, ${SMALL_USERS} users ~${SMALL_SIZE} each, shared ${SHARED}; ` +
      `${path.relative(repoRoot, filled.dir)} (${filled.build_seconds ? `built now in ${filled.build_seconds.toFixed(0)} s` : `reused, built ${filled.built_at}`})`,
  );

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-scale-'));
  try {
    // Adds change the database: the service runs on a copy, so the cached fill stays as built.
    const dataDir = path.join(scratch, 'data');
    fs.cpSync(filled.dir, dataDir, { recursive: true });
    // A fill made by an older version gets this version's migrations (new indexes) once, here.
    const [migrateMs] = await timed(async () => {
      await openMemoryDb(dataDir);
      await closeMemoryDb(dataDir);
    });
    if (migrateMs > 1000) console.log(`migrations applied to the copy in ${(migrateMs / 1000).toFixed(1)} s`);
    const emptyDir = path.join(scratch, 'empty');

    const raw = await child('read', dataDir, 1);
    raw.stop();
    const empty = await child('serve', emptyDir, 2);
    empty.stop();
    const full = await child('serve', dataDir, 2);
    const [listening, loaded] = full.reports;
    const client = jsonClient(String(listening.line.base));
    try {
      const queries = questionSentences(600, 7);
      const times = {
        small: [] as number[],
        big: [] as number[],
        addSmall: [] as number[],
        addBig: [] as number[],
      };
      for (let round = 0; round < WARMUP + QUERIES; round++) {
        const query = queries[round % queries.length];
        const user = smallUser(Math.floor(random() * SMALL_USERS));
        const [small] = await timed(() =>
          client.post<{ results: SearchItem[] }>('/memory/search', { query, user_id: user, top_k: 10 }),
        );
        const [big, found] = await timed(() =>
          client.post<{ results: SearchItem[] }>('/memory/search', { query, user_id: BIG_USER, top_k: 10 }),
        );
        if (!found.results.length) throw new Error(`no results for "${query}"`);
        if (round < WARMUP) continue;
        times.small.push(small);
        times.big.push(big);
      }
      const fresh = memorySentences(ADDS * 2 + WARMUP, 3);
      for (let i = 0; i < fresh.length; i++) {
        const big = i % 2 === 1;
        const text = `${fresh[i]} (scale note ${i})`;
        const user = big ? BIG_USER : smallUser(Math.floor(random() * SMALL_USERS));
        const [took, res] = await timed(() =>
          client.post<AddResponse>('/memory/add', { user_id: user, text, infer: false }),
        );
        if (res.results[0]?.event !== 'ADD')
          throw new Error(`add of a new text answered ${res.results[0]?.event}`);
        if (i < WARMUP) continue;
        (big ? times.addBig : times.addSmall).push(took);
      }

      const millions = total / 1e6;
      const rss = Number(loaded.line.rss);
      const emptyRss = Number(empty.reports[1].line.rss);
      const s = (x: Summary) => [ms(x.p50), ms(x.p99)];
      const sm = summarize(times.small);
      const bg = summarize(times.big);
      const as = summarize(times.addSmall);
      const ab = summarize(times.addBig);
      const sec = (x: number) => `${(x / 1000).toFixed(1)} s`;
      const readMs = Number(raw.reports[0].line.read_ms);
      console.log(
        `\n${total} memories over ${SMALL_USERS + 1} users + shared; each service in a fresh process\n`,
      );
      console.log(
        table(
          ['measure', 'value', 'baseline', 'ratio', 'target'],
          [
            [
              'start-up: spawn to answering',
              sec(listening.wall_ms),
              `${sec(empty.reports[0].wall_ms)} empty`,
              ratio(listening.wall_ms, empty.reports[0].wall_ms),
              `< ${TARGET.start_s} s`,
            ],
            ['  store open', sec(Number(listening.line.open_ms)), '', '', ''],
            ['  model warm-up', sec(Number(listening.line.warm_ms)), '', '', ''],
            [
              'every user indexed (background)',
              sec(loaded.wall_ms),
              `${sec(readMs)} rows read only`,
              ratio(Number(loaded.line.indexes_ms), readMs),
              '',
            ],
            ['resident memory, all indexed', mib(rss), `${mib(emptyRss)} empty`, ratio(rss, emptyRss), ''],
            ['  per million memories', mib((rss - emptyRss) / millions), '', '', ''],
          ],
        ),
      );
      console.log(
        `\n${table(
          ['POST, ms', 'n', 'p50', 'p99', 'p99 / target'],
          [
            [`search, user with ~${SMALL_SIZE}`, String(sm.n), ...s(sm), ratio(sm.p99, TARGET.search_p99)],
            [`search, user with ${BIG}`, String(bg.n), ...s(bg), ratio(bg.p99, TARGET.search_p99)],
            [`add, user with ~${SMALL_SIZE}`, String(as.n), ...s(as), ratio(as.p99, TARGET.add_p99)],
            [`add, user with ${BIG}`, String(ab.n), ...s(ab), ratio(ab.p99, TARGET.add_p99)],
          ],
        )}`,
      );
      const met =
        listening.wall_ms / 1000 < TARGET.start_s &&
        Math.max(sm.p99, bg.p99) < TARGET.search_p99 &&
        Math.max(as.p99, ab.p99) < TARGET.add_p99;
      console.log(
        `\ntargets (start < ${TARGET.start_s} s, search p99 < ${TARGET.search_p99} ms, add p99 < ${TARGET.add_p99} ms): ${met ? 'met' : 'NOT met'}`,
      );
      console.log(loadLine());
    } finally {
      client.close();
      full.stop();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

runBench(main);
