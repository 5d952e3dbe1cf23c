/**
 * Filled memory stores for the search benchmark, cached under `.data/bench/`:
 *
 * - every generated sentence is embedded once by the real model and its vector appended to
 *   `.data/bench/memory-vectors/<list>-<embedder>.f32` (row i = sentence i), so an interrupted fill
 *   resumes and a larger size only embeds the missing tail;
 * - `.data/bench/memory-<n>/` is a data directory whose memory database holds `n` memories of user
 *   `bench` plus the `shared` user's, inserted through the store API (`EmbeddedMemoryStore.insert`,
 *   no history rows), rebuilt only when its manifest does not match.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Embedder } from '../../activities/memory/embedding/embedder';
import { textHash } from '../../activities/memory/memory-text';
import { openEmbeddedMemoryStore } from '../../activities/memory/store/embedded-memory-store';
import { openMemoryDb } from '../../activities/memory/store/memory-db';
import type { MemoryRecord } from '../../shared/memory-model';
import { repoRoot } from '../../shared/paths';
import { seededRandom } from './bench-stats';
import { PRIVATE_CATEGORIES, SENTENCES_VERSION } from './memory-sentences';

export const BENCH_DATA = path.join(repoRoot, '.data', 'bench');
const DAY_MS = 86_400_000;
/** Share of the filled memories that are short-term (run_id within the 10 days before the build). */
export const SHORT_TERM_SHARE = 0.1;

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * The vectors of `sentences` (flat, row i = sentence i), from the cache file when it has them,
 * embedding and appending only the rows it lacks.
 */
export async function cachedVectors(
  list: string,
  sentences: string[],
  embedder: Embedder,
): Promise<Float32Array> {
  const dims = embedder.dimensions;
  const dir = path.join(BENCH_DATA, 'memory-vectors');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${list}-v${SENTENCES_VERSION}-${fileSafe(embedder.id)}.f32`);
  const rowBytes = dims * 4;
  let have = fs.existsSync(file) ? Math.floor(fs.statSync(file).size / rowBytes) : 0;
  if (fs.existsSync(file) && fs.statSync(file).size !== have * rowBytes)
    fs.truncateSync(file, have * rowBytes);
  if (have < sentences.length) {
    const missing = sentences.length - have;
    console.log(
      `embedding ${missing} ${list} sentences with the real model (cached in ${path.relative(repoRoot, file)})…`,
    );
    const started = performance.now();
    const chunk = 1024;
    let lastReport = started;
    while (have < sentences.length) {
      const texts = sentences.slice(have, have + chunk);
      const vectors = await embedder.embed(texts);
      const flat = new Float32Array(texts.length * dims);
      vectors.forEach((v, i) => flat.set(v, i * dims));
      fs.appendFileSync(file, Buffer.from(flat.buffer));
      have += texts.length;
      const now = performance.now();
      if (now - lastReport > 15_000 || have === sentences.length) {
        lastReport = now;
        const done = have - (sentences.length - missing);
        const rate = done / ((now - started) / 1000);
        console.log(
          `  ${have}/${sentences.length} (${rate.toFixed(0)} sentences/s, ~${((sentences.length - have) / rate / 60).toFixed(1)} min left)`,
        );
      }
    }
  }
  const bytes = fs.readFileSync(file);
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return all.slice(0, sentences.length * dims);
}

export interface FilledStore {
  dir: string;
  size: number;
  shared: number;
  built_at: string;
  /** How long the build took now (0 when reused). */
  build_seconds: number;
}

interface Manifest {
  key: string;
  size: number;
  shared: number;
  built_at: string;
}

/**
 * `.data/bench/memory-<size>/`: `size` memories of user `bench` (sentences[0..size)) and
 * `sharedSentences.length` of user `shared`, with the given vectors; built once per key.
 */
export async function filledStore(opts: {
  size: number;
  sentences: string[];
  vectors: Float32Array;
  sharedSentences: string[];
  sharedVectors: Float32Array;
  embedderId: string;
  dims: number;
}): Promise<FilledStore> {
  const { size, sentences, vectors, sharedSentences, sharedVectors, embedderId, dims } = opts;
  const dir = path.join(BENCH_DATA, `memory-${size}`);
  const manifestFile = path.join(dir, 'bench-manifest.json');
  const key = `v${SENTENCES_VERSION}:${embedderId}:${size}:${sharedSentences.length}:${SHORT_TERM_SHARE}`;
  if (fs.existsSync(manifestFile)) {
    const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    if (m.key === key) return { dir, size, shared: m.shared, built_at: m.built_at, build_seconds: 0 };
  }
  const started = performance.now();
  const building = `${dir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  console.log(
    `filling ${path.relative(repoRoot, dir)} through the store API (${size} + ${sharedSentences.length} memories)…`,
  );
  const store = await openEmbeddedMemoryStore(building, dims);
  const db = openMemoryDb(building);
  const builtAt = new Date();
  const random = seededRandom(size);
  const insertAll = async (userId: string, texts: string[], flat: Float32Array, count: number) => {
    db.exec('BEGIN');
    for (let i = 0; i < count; i++) {
      const shortTerm = userId !== 'shared' && random() < SHORT_TERM_SHARE;
      const daysAgo = shortTerm ? Math.floor(random() * 10) : random() * 365;
      const at = new Date(builtAt.getTime() - daysAgo * DAY_MS);
      const category = PRIVATE_CATEGORIES[Math.floor(random() * PRIVATE_CATEGORIES.length)];
      const record: MemoryRecord = {
        id: randomUUID(),
        memory: texts[i],
        user_id: userId,
        agent_id: null,
        run_id: shortTerm ? at.toISOString().slice(0, 10) : null,
        metadata: { category },
        category,
        hash: textHash(texts[i]),
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
        embedder: embedderId,
      };
      await store.insert(record, flat.subarray(i * dims, (i + 1) * dims));
      if (i % 5000 === 4999) {
        db.exec('COMMIT');
        db.exec('BEGIN');
      }
    }
    db.exec('COMMIT');
  };
  await insertAll('bench', sentences, vectors, size);
  await insertAll('shared', sharedSentences, sharedVectors, sharedSentences.length);
  db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  db.close();
  const manifest: Manifest = { key, size, shared: sharedSentences.length, built_at: builtAt.toISOString() };
  fs.writeFileSync(path.join(building, 'bench-manifest.json'), JSON.stringify(manifest, null, 2));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(building, dir);
  return {
    dir,
    size,
    shared: sharedSentences.length,
    built_at: manifest.built_at,
    build_seconds: (performance.now() - started) / 1000,
  };
}
