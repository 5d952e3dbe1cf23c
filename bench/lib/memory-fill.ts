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
import type { Embedder } from '../../domain/memory/embedding/embedder';
import { textHash } from '../../domain/memory/memory-text';
import { openEmbeddedMemoryStore } from '../../domain/memory/store/embedded-memory-store';
import { closeMemoryDb, openMemoryDb } from '../../domain/memory/store/memory-db';
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

/** One user's memories in a filled data directory: rows `rows` (default all) of `texts`/`vectors`. */
export interface FillGroup {
  userId: string;
  texts: string[];
  /** Flat, row i = texts[i]. */
  vectors: Float32Array;
  rows?: ArrayLike<number>;
}

interface Manifest {
  key: string;
  built_at: string;
}

/**
 * `.data/bench/<name>/`: a data directory whose memory database holds the groups' memories,
 * inserted through the store API (`EmbeddedMemoryStore.insert`, no history rows) in transactions
 * of 5,000; rebuilt only when its manifest's key differs from `key`. 10% of a non-shared user's
 * memories are short-term (run_id within the 10 days before the build); created_at is spread over
 * the year before it.
 */
export async function fillDataDir(opts: {
  name: string;
  key: string;
  groups: FillGroup[];
  embedderId: string;
  dims: number;
  seed: number;
}): Promise<{ dir: string; built_at: string; build_seconds: number }> {
  const { groups, embedderId, dims } = opts;
  const dir = path.join(BENCH_DATA, opts.name);
  const manifestFile = path.join(dir, 'bench-manifest.json');
  const key = `v${SENTENCES_VERSION}:${embedderId}:${SHORT_TERM_SHARE}:${opts.key}`;
  if (fs.existsSync(manifestFile)) {
    const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    if (m.key === key) return { dir, built_at: m.built_at, build_seconds: 0 };
  }
  const started = performance.now();
  const building = `${dir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  const total = groups.reduce((n, g) => n + (g.rows?.length ?? g.texts.length), 0);
  console.log(
    `filling ${path.relative(repoRoot, dir)} through the store API (${total} memories of ${groups.length} users)…`,
  );
  const store = await openEmbeddedMemoryStore(building, dims);
  const { file: db } = await openMemoryDb(building);
  const builtAt = new Date();
  const random = seededRandom(opts.seed);
  let inserted = 0;
  let lastReport = started;
  db.exec('BEGIN');
  for (const { userId, texts, vectors, rows } of groups) {
    const count = rows?.length ?? texts.length;
    for (let n = 0; n < count; n++) {
      const i = rows ? rows[n] : n;
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
        valid_from: at.toISOString(),
        valid_to: null,
        version_of: null,
      };
      await store.insert(record, vectors.subarray(i * dims, (i + 1) * dims));
      if (++inserted % 5000 === 0) {
        db.exec('COMMIT');
        db.exec('BEGIN');
        const now = performance.now();
        if (now - lastReport > 15_000) {
          lastReport = now;
          console.log(
            `  ${inserted}/${total} (${(inserted / ((now - started) / 1000)).toFixed(0)} inserts/s)`,
          );
        }
      }
    }
  }
  db.exec('COMMIT');
  db.pragma('wal_checkpoint(TRUNCATE)');
  await store.close();
  await closeMemoryDb(building);
  const manifest: Manifest = { key, built_at: builtAt.toISOString() };
  fs.writeFileSync(path.join(building, 'bench-manifest.json'), JSON.stringify(manifest, null, 2));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(building, dir);
  return { dir, built_at: manifest.built_at, build_seconds: (performance.now() - started) / 1000 };
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
  const { size, sharedSentences } = opts;
  const filled = await fillDataDir({
    name: `memory-${size}`,
    key: `${size}:${sharedSentences.length}`,
    groups: [
      { userId: 'bench', texts: opts.sentences, vectors: opts.vectors, rows: range(size) },
      { userId: 'shared', texts: sharedSentences, vectors: opts.sharedVectors },
    ],
    embedderId: opts.embedderId,
    dims: opts.dims,
    seed: size,
  });
  return { ...filled, size, shared: sharedSentences.length };
}

const range = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
