/**
 * `npm run bench:memory-search`: p50/p99 of POST /memory/search and POST /memory/search_combined
 * over HTTP on loopback (the real createMemoryApp on an ephemeral port, one kept-alive connection)
 * with 10k and 100k memories for one user plus 10k in user `shared`; target p99 < 25 ms at 100k
 * including the query embedding.
 *
 * Store contents: every memory sentence (generated, distinct) is embedded by the real model once;
 * the vectors are cached under .data/bench/memory-vectors/ and the filled data directories under
 * .data/bench/memory-<n>/ (inserted through the store API), so later runs reuse both. Queries are
 * generated questions embedded by the real model at request time.
 *
 * Shown beside it, timed per query in the same run: the query embedding alone (`embed([query])`
 * on the service's embedder), the store's search in-process (user + shared, the pool of 40 that
 * time decay uses), and the baseline: a plain JS linear scan (Float32 dot products over the same
 * user + shared vectors, then top-10), alone and plus the embedding.
 *
 * Both modes of the service run on the same rows and queries: `embedded` (the memory database of
 * one data directory) and `shared` (the fleet's PostgreSQL, a private cluster under
 * .data/bench/postgres/ holding a copy of the same memories; indexes follow its change feed,
 * docs/fleet.md#memory).
 *
 * BENCH_SIZES=10000,100000  BENCH_SHARED=10000  BENCH_QUERIES=400  BENCH_WARMUP=30
 * BENCH_MODES=embedded,shared
 */
import * as path from 'node:path';
import { openSharedMemoryDb } from '../domain/memory/fleet/shared-memory-db';
import { SharedMemoryStore } from '../domain/memory/fleet/shared-memory-store';
import { openEmbeddedMemoryStore } from '../domain/memory/store/embedded-memory-store';
import type { MemoryStore } from '../domain/memory/store/memory-store';
import { repoRoot } from '../shared/paths';
import {
  envInt,
  loadLine,
  machineLine,
  ms,
  ratio,
  summarize,
  table,
  timed,
  type Summary,
  runBench,
} from './lib/bench-stats';
import { cachedVectors, filledStore, SHORT_TERM_SHARE } from './lib/memory-fill';
import { memorySentences, questionSentences } from './lib/memory-sentences';
import { benchConfig, serviceEmbedder, startMemoryServer, type SearchItem } from './lib/memory-server';
import { sharedCopy } from './lib/shared-memory-copy';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map((s) => Number(s.trim()));
const MODES = (process.env.BENCH_MODES ?? 'embedded,shared').split(',').map((m) => m.trim());
const SHARED = envInt('BENCH_SHARED', 10_000);
const QUERIES = envInt('BENCH_QUERIES', 400);
const WARMUP = envInt('BENCH_WARMUP', 30);
const TOP_K = 10;
/** The candidate pool the service asks the store for when time decay is on (max(top_k·4, 40)). */
const DECAY_POOL = Math.max(TOP_K * 4, 40);
const TARGET_P99_MS = 25;
const USER = 'bench';
const DAY_MS = 86_400_000;

/** The baseline: Float32 dot product with every row, then the best k by insertion into a short list. */
function jsScanTopK(rows: Float32Array, n: number, query: Float32Array, k: number): number[] {
  const d = query.length;
  const best: { i: number; s: number }[] = [];
  for (let i = 0, off = 0; i < n; i++, off += d) {
    let s = 0;
    for (let j = 0; j < d; j++) s += rows[off + j] * query[j];
    if (best.length === k && s <= best[k - 1].s) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].s < s) at--;
    best.splice(at, 0, { i, s });
    if (best.length > k) best.pop();
  }
  return best.map((b) => b.i);
}

interface SizeResult {
  size: number;
  mode: string;
  search: Summary;
  combined: Summary;
  service: Summary;
  embed: Summary;
  store: Summary;
  scan: Summary;
  embedPlusScan: Summary;
  agreement: number;
}

async function main(): Promise<void> {
  if (SIZES.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('BENCH_SIZES: comma-separated counts');
  if (!MODES.length || MODES.some((m) => m !== 'embedded' && m !== 'shared'))
    throw new Error('BENCH_MODES: embedded, shared or both');
  console.log(machineLine());
  const config = benchConfig();
  const embedder = serviceEmbedder(config);
  await embedder.embed(['warm up']);
  const dims = embedder.dimensions;

  const maxSize = Math.max(...SIZES);
  const sentences = memorySentences(maxSize, 1);
  const sharedSentences = memorySentences(SHARED, 2);
  const vectors = await cachedVectors('user', sentences, embedder);
  const sharedVectors = await cachedVectors('shared', sharedSentences, embedder);
  const queries = questionSentences(Math.min(QUERIES, 600), 7);
  console.log(
    `store contents: generated distinct sentences, every one embedded by ${embedder.id} (no synthetic vectors); ` +
      `${(SHORT_TERM_SHARE * 100).toFixed(0)}% of the user's memories short-term (run_id within 10 days of the build), ` +
      `created_at spread over the year before it.`,
  );
  console.log(
    `queries: ${queries.length} generated questions, embedded by the model at request time; ${WARMUP} warm-up rounds first.`,
  );

  const results: SizeResult[] = [];
  for (const size of SIZES) {
    const filled = await filledStore({
      size,
      sentences: sentences.slice(0, size),
      vectors: vectors.subarray(0, size * dims),
      sharedSentences,
      sharedVectors,
      embedderId: embedder.id,
      dims,
    });
    const where = path.relative(repoRoot, filled.dir);
    const recentDays = Math.min(365, Math.floor((Date.now() - Date.parse(filled.built_at)) / DAY_MS) + 3);
    console.log(
      `\n== ${size} memories of user ${USER} + ${filled.shared} of user shared: ${where} ` +
        `(${filled.build_seconds ? `built now in ${filled.build_seconds.toFixed(1)} s` : `reused, built ${filled.built_at}`}) ==`,
    );
    for (const mode of MODES) {
      const copy = mode === 'shared' ? await sharedCopy(filled.dir) : undefined;
      if (copy?.build_seconds)
        console.log(`  (copied into PostgreSQL in ${copy.build_seconds.toFixed(1)} s)`);
      const server = copy
        ? await startMemoryServer(filled.dir, {
            ...config,
            PLAT_METADATA_URL: copy.url,
            PLAT_SECRET_KEY: copy.secretKey,
          })
        : await startMemoryServer(filled.dir, config);
      // A second store instance on the same rows, for the store's own search time in-process.
      let store: MemoryStore;
      if (copy) {
        const shared = await openSharedMemoryDb(`${copy.url}?application_name=bench-store`);
        store = await SharedMemoryStore.open(shared.db, dims, shared.metadata.notifications);
      } else {
        store = await openEmbeddedMemoryStore(filled.dir, dims);
      }
      console.log(
        `-- mode ${mode}: ${copy ? 'rows in PostgreSQL, indexes following its change feed' : "the data directory's memory database"} --`,
      );
      const n = size + filled.shared;
      const rows = new Float32Array(n * dims);
      rows.set(vectors.subarray(0, size * dims));
      rows.set(sharedVectors, size * dims);
      const label = (i: number) =>
        i < size ? `${USER}\0${sentences[i]}` : `shared\0${sharedSentences[i - size]}`;

      const t = {
        search: [],
        combined: [],
        service: [],
        embed: [],
        store: [],
        scan: [],
        embedPlusScan: [],
      } as Record<keyof Omit<SizeResult, 'size' | 'mode' | 'agreement'>, number[]>;
      let agree = 0;
      let compared = 0;
      const measured: { vector: Float32Array; embed: number; indexTop: Set<string> }[] = [];
      for (let round = 0; round < WARMUP + QUERIES; round++) {
        const query = queries[round % queries.length];
        const [search, found] = await timed(() =>
          server.client.post<{ results: SearchItem[] }>('/memory/search', {
            query,
            user_id: USER,
            top_k: TOP_K,
          }),
        );
        const [combined] = await timed(() =>
          server.client.post('/memory/search_combined', {
            query,
            user_id: USER,
            top_k: TOP_K,
            recent_days: recentDays,
          }),
        );
        const [service] = await timed(() =>
          server.service.search({
            query,
            user_id: USER,
            top_k: TOP_K,
            min_score: 0,
            time_decay: true,
            search_mode: 'hybrid',
          }),
        );
        const [embed, [vector]] = await timed(() => embedder.embed([query]));
        const [storeMs, hits] = await timed(async () => {
          const [own, shared] = await Promise.all([
            store.search(vector, { user_id: USER }, DECAY_POOL),
            store.search(vector, { user_id: 'shared' }, DECAY_POOL),
          ]);
          return [...own, ...shared];
        });
        if (found.results.length === 0) throw new Error(`no results for "${query}"`);
        if (round < WARMUP) continue;
        t.search.push(search);
        t.combined.push(combined);
        t.service.push(service);
        t.embed.push(embed);
        t.store.push(storeMs);
        measured.push({
          vector,
          embed,
          indexTop: new Set(
            hits
              .sort((a, b) => b.similarity - a.similarity)
              .slice(0, TOP_K)
              .map((h) => `${h.record.user_id}\0${h.record.memory}`),
          ),
        });
      }
      // The baseline in a loop of its own: a pass over all the Float32 rows (170 MB at 100,000)
      // evicts the service's memory from the CPU caches, and would slow whatever ran after it.
      for (const { vector, embed, indexTop } of measured) {
        const [scan, top] = await timed(() => jsScanTopK(rows, n, vector, TOP_K));
        t.scan.push(scan);
        t.embedPlusScan.push(embed + scan);
        // Does the vector index find the Float32 scan's top 10?
        for (const i of top) if (indexTop.has(label(i))) agree++;
        compared += top.length;
      }
      await server.stop();
      await store.close();
      await copy?.stop();
      const r: SizeResult = {
        size,
        mode,
        search: summarize(t.search),
        combined: summarize(t.combined),
        service: summarize(t.service),
        embed: summarize(t.embed),
        store: summarize(t.store),
        scan: summarize(t.scan),
        embedPlusScan: summarize(t.embedPlusScan),
        agreement: agree / Math.max(1, compared),
      };
      results.push(r);
      const row = (name: string, s: Summary) => [name, ms(s.p50), ms(s.p99), ms(s.mean)];
      console.log(
        table(
          [`${QUERIES} queries`, 'p50 ms', 'p99 ms', 'mean ms'],
          [
            row(`POST /memory/search (hybrid, top_k ${TOP_K}, time decay on)`, r.search),
            row(`POST /memory/search_combined (recent_days ${recentDays})`, r.combined),
            row('  service.search in-process (same request, no HTTP)', r.service),
            row('  query embedding alone: embed([query])', r.embed),
            row(`  store search in-process (user + shared, ${DECAY_POOL} each)`, r.store),
            row(`baseline: JS Float32 scan + top-${TOP_K} (${n} vectors)`, r.scan),
            row('baseline: embedding + JS scan (per query)', r.embedPlusScan),
          ],
        ),
      );
      console.log(
        `vector index (sign-code shortlist from 20,000 rows, int8 scan, int16 rescoring) vs Float32 scan, top-${TOP_K} agreement: ${(100 * r.agreement).toFixed(1)}%; ` +
          `p50 split: embedding ${ms(r.embed.p50)} + store ${ms(r.store.p50)} + ranking/merge ` +
          `${ms(r.service.p50 - r.embed.p50 - r.store.p50)} + HTTP and first sight ${ms(r.search.p50 - r.service.p50)} ms ` +
          '(the in-process search asks each question a third time: the words it looks up and the readings of ' +
          'its candidates are cached by then; HTTP alone is about 1 ms)',
      );
      console.log(loadLine());
    }
  }

  console.log('\nsummary                                   p50 ms   p99 ms');
  for (const r of results) {
    console.log(`  -- ${r.size} memories, mode ${r.mode}`);
    console.log(
      `  ${String(r.size).padStart(6)} search                        ${ms(r.search.p50).padStart(6)}   ${ms(r.search.p99).padStart(6)}`,
    );
    console.log(
      `  ${String(r.size).padStart(6)} search_combined               ${ms(r.combined.p50).padStart(6)}   ${ms(r.combined.p99).padStart(6)}`,
    );
    console.log(
      `  ${String(r.size).padStart(6)} embedding alone               ${ms(r.embed.p50).padStart(6)}   ${ms(r.embed.p99).padStart(6)}`,
    );
    console.log(
      `  ${String(r.size).padStart(6)} baseline JS scan              ${ms(r.scan.p50).padStart(6)}   ${ms(r.scan.p99).padStart(6)}`,
    );
    console.log(
      `  ${String(r.size).padStart(6)} baseline embedding + JS scan  ${ms(r.embedPlusScan.p50).padStart(6)}   ${ms(r.embedPlusScan.p99).padStart(6)}`,
    );
    console.log(
      `  ${String(r.size).padStart(6)} ratio search / (embedding + JS scan): p50 ${ratio(r.search.p50, r.embedPlusScan.p50)}, ` +
        `p99 ${ratio(r.search.p99, r.embedPlusScan.p99)}; JS scan / store search: p50 ${ratio(r.scan.p50, r.store.p50)}`,
    );
  }
  for (const r of results)
    console.log(
      `  ${String(r.size).padStart(6)} spread p99/p50: baseline JS scan ${(r.scan.p99 / r.scan.p50).toFixed(2)}, ` +
        `search ${(r.search.p99 / r.search.p50).toFixed(2)} (the scan is a pure CPU loop: a wide spread there ` +
        'means the machine, not the service, widened the tails)',
    );
  const met = (x: number) => (x < TARGET_P99_MS ? 'met' : 'NOT met');
  const largestSize = Math.max(...SIZES);
  for (const largest of results.filter((r) => r.size === largestSize))
    console.log(
      `\ntarget p99 < ${TARGET_P99_MS} ms at ${largest.size}, mode ${largest.mode}, including the query embedding: ` +
        `search ${ms(largest.search.p99)} ms (${met(largest.search.p99)}), ` +
        `search_combined ${ms(largest.combined.p99)} ms (${met(largest.combined.p99)})` +
        (largest.size < 100_000 ? '   (run at 100000 for the target size)' : ''),
    );
  const both = MODES.length === 2 ? results.filter((r) => r.size === largestSize) : [];
  if (both.length === 2)
    console.log(
      `shared / embedded at ${largestSize}: search p50 ${ratio(both[1].search.p50, both[0].search.p50)}, ` +
        `p99 ${ratio(both[1].search.p99, both[0].search.p99)}`,
    );
  console.log(loadLine());
}

runBench(main);
