/**
 * `npm run bench:add`: p50/p99 of POST /memory/add with infer=false over HTTP on loopback (the real
 * createMemoryApp on an ephemeral port, one kept-alive connection): BENCH_ADDS sequential adds of
 * distinct sentences after BENCH_WARMUP warm-up adds; target p99 < 30 ms.
 *
 * Baseline, timed per add in the same run and interleaved with the HTTP adds (so both see the same
 * load): the irreducible work of an add done in-process, `embed([text])` on the service's embedder
 * then `EmbeddedMemoryStore.insert(record, vector)` into a second, empty data directory (no HTTP,
 * validation, duplicate check, history row or audit line). Its two parts are shown apart too.
 *
 * BENCH_ADDS=1000  BENCH_WARMUP=50
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { textHash } from '../domain/memory/memory-text';
import { openEmbeddedMemoryStore } from '../domain/memory/store/embedded-memory-store';
import { openMemoryDb } from '../domain/memory/store/memory-db';
import type { MemoryRecord } from '../shared/memory-model';
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
import { memorySentences } from './lib/memory-sentences';
import { benchConfig, serviceEmbedder, startMemoryServer, type AddResponse } from './lib/memory-server';

const ADDS = envInt('BENCH_ADDS', 1000);
const WARMUP = envInt('BENCH_WARMUP', 50);
const TARGET_P99_MS = 30;
const USER = 'bench';

async function main(): Promise<void> {
  console.log(machineLine());
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-add-'));
  try {
    const config = benchConfig();
    const embedder = serviceEmbedder(config);
    const platDir = path.join(scratch, 'plat');
    const baseDir = path.join(scratch, 'baseline');
    const server = await startMemoryServer(platDir, config);
    const baseline = await openEmbeddedMemoryStore(baseDir, embedder.dimensions);
    const { synchronous } = (await openMemoryDb(platDir)).file.prepare('PRAGMA synchronous').get() as {
      synchronous: number;
    };
    const sync = ['OFF', 'NORMAL', 'FULL', 'EXTRA'][synchronous] ?? synchronous;
    const sentences = memorySentences(WARMUP + ADDS, 3);
    console.log(
      `${ADDS} sequential adds (infer=false, distinct generated sentences, user ${USER}, empty store at start) ` +
        `after ${WARMUP} warm-up adds; SQLite WAL, synchronous=${String(sync)}; data in ${scratch}`,
    );

    const add: number[] = [];
    const base: number[] = [];
    const embedOnly: number[] = [];
    const insertOnly: number[] = [];
    const started = performance.now();
    for (let i = 0; i < sentences.length; i++) {
      const text = sentences[i];
      const [addMs, res] = await timed(() =>
        server.client.post<AddResponse>('/memory/add', {
          user_id: USER,
          text,
          infer: false,
          metadata: { category: 'project' },
        }),
      );
      if (res.results[0]?.event !== 'ADD') throw new Error(`add ${i} answered ${JSON.stringify(res)}`);

      const t0 = performance.now();
      const [vector] = await embedder.embed([text]);
      const t1 = performance.now();
      const at = new Date().toISOString();
      const record: MemoryRecord = {
        id: randomUUID(),
        memory: text,
        user_id: USER,
        agent_id: null,
        run_id: null,
        metadata: { category: 'project' },
        category: 'project',
        hash: textHash(text),
        created_at: at,
        updated_at: at,
        embedder: embedder.id,
        valid_from: at,
        valid_to: null,
        version_of: null,
      };
      await baseline.insert(record, vector);
      const t2 = performance.now();
      if (i < WARMUP) continue;
      add.push(addMs);
      base.push(t2 - t0);
      embedOnly.push(t1 - t0);
      insertOnly.push(t2 - t1);
    }
    const wall = (performance.now() - started) / 1000;
    await server.stop();
    await baseline.close();

    const s = {
      add: summarize(add),
      base: summarize(base),
      embed: summarize(embedOnly),
      insert: summarize(insertOnly),
    };
    const row = (name: string, x: Summary) => [name, ms(x.p50), ms(x.p99), ms(x.mean)];
    console.log(
      '\n' +
        table(
          [`${ADDS} adds`, 'p50 ms', 'p99 ms', 'mean ms'],
          [
            row('POST /memory/add (infer=false) over HTTP', s.add),
            row('baseline: embed([text]) + store.insert in-process', s.base),
            row('  of which embed([text])', s.embed),
            row('  of which store.insert (SQLite row + index slot)', s.insert),
          ],
        ),
    );
    console.log(
      `\nratio add / baseline: p50 ${ratio(s.add.p50, s.base.p50)}, p99 ${ratio(s.add.p99, s.base.p99)}; ` +
        `add / embedding alone: p50 ${ratio(s.add.p50, s.embed.p50)}, p99 ${ratio(s.add.p99, s.embed.p99)}`,
    );
    console.log(
      `add overhead beyond the baseline (p50): ${ms(s.add.p50 - s.base.p50)} ms ` +
        '(HTTP + validation, per-user lock, hash lookup, history row, audit line)',
    );
    console.log(
      `target p99 < ${TARGET_P99_MS} ms: ${ms(s.add.p99)} ms (${s.add.p99 < TARGET_P99_MS ? 'met' : 'NOT met'}); ` +
        `wall time ${wall.toFixed(1)} s for both series`,
    );
    console.log(loadLine());
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

runBench(main);
