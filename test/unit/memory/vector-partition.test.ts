/** The in-process vector index: exact nearest neighbours, filters, deletes, and the kernel's bytes. */
import { INT8_DOT_WASM_BASE64, newInt8DotKernel } from '../../../domain/memory/vector/int8-dot-kernel';
import { INT8_DOT_WAT } from '../../../domain/memory/vector/int8-dot-wat';
import {
  SHORTLIST_FROM,
  SLOT_FLAGS,
  VectorPartition,
  type SlotInfo,
} from '../../../domain/memory/vector/vector-partition';
import loadWabt from 'wabt';
import { slotFilter } from '../../../domain/memory/store/slot-filter';
import { seededRandom } from '../../../scripts/demo-data/random';

/** Deterministic unit vectors (mulberry32). */
function vectors(n: number, dims: number, seed = 7): Float32Array[] {
  const next = seededRandom(seed);
  const rand = () => next() - 0.5;
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dims }, rand);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}
const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
};
/** A slot's filter fields: no agent or run, created at the epoch and valid since, unless `info` says. */
const slot = (id: string, info: Partial<SlotInfo> = {}): SlotInfo => ({
  id,
  agent_id: null,
  run_id: null,
  created_ms: 0,
  valid_from_ms: 0,
  valid_to_ms: Infinity,
  ...info,
});

/**
 * The partition's top k for `q` are the exact ones: `rows` (ids `prefix` + row number) ranked by
 * cosine to `q` by brute force, in that order and with those scores (`q` need not be a unit vector).
 */
function expectExactTopK(
  partition: VectorPartition,
  rows: Float32Array[],
  prefix: string,
  q: Float32Array,
  k: number,
) {
  const norm = Math.hypot(...q);
  const truth = rows
    .map((v, i) => ({ id: `${prefix}${i}`, cosine: dot(v, q) / norm }))
    .sort((a, b) => b.cosine - a.cosine)
    .slice(0, k);
  const got = partition.search(q, k, () => true);
  expect(got.map((h) => h.id)).toEqual(truth.map((t) => t.id));
  got.forEach((h, i) => expect(h.cosine).toBeCloseTo(truth[i].cosine, 3));
}

describe('vector partition', () => {
  const dims = 384;
  const data = vectors(3000, dims);
  const index = new VectorPartition(dims);
  data.forEach((v, i) => index.upsert(slot(`m${i}`, { agent_id: i % 2 ? 'a' : 'b' }), v));

  it('finds the exact nearest neighbours with cosine scores', () => {
    for (const q of vectors(5, dims, 99)) expectExactTopK(index, data, 'm', q, 10);
  });

  it('applies the filter before choosing the top k', () => {
    const got = index.search(data[1], 5, (s) => s.agent_id === 'b');
    expect(got).toHaveLength(5);
    expect(got.every((h) => Number(h.id.slice(1)) % 2 === 0)).toBe(true);
  });

  it('forgets removed vectors, reuses their slots and replaces updated ones', () => {
    index.remove('m1');
    expect(index.search(data[1], 1, () => true)[0].id).not.toBe('m1');
    index.upsert(slot('fresh', { run_id: '2026-11-22' }), data[1]);
    expect(index.search(data[1], 1, () => true)[0]).toMatchObject({ id: 'fresh' });
    expect(index.size).toBe(3000);
    index.upsert(slot('fresh', { run_id: '2026-11-22' }), data[2]);
    expect(
      index
        .search(data[2], 2, () => true)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['fresh', 'm2']);
  });

  it('stays exact with 1024-d vectors, where an int8 × int16 sum could overflow int32 at full scale', () => {
    const wide = vectors(500, 1024, 3);
    const partition = new VectorPartition(1024, 500);
    wide.forEach((v, i) => partition.upsert(slot(`w${i}`), v));
    // A query with one dominant component scales every other one up: the worst case for overflow.
    const q = Float32Array.from(wide[0], (x, i) => (i === 0 ? 5 : x));
    expectExactTopK(partition, wide, 'w', q, 5);
  });

  it('grows past storage chunks (1,024 rows) row by row and stays exact across it', () => {
    const many = vectors(9000, 32, 11);
    const partition = new VectorPartition(32);
    many.forEach((v, i) => partition.upsert(slot(`c${i}`), v));
    for (const q of [many[10], many[5000], many[8999]]) expectExactTopK(partition, many, 'c', q, 10);
  });

  describe(`from ${SHORTLIST_FROM} rows, through a shortlist by sign codes`, () => {
    // Rows in clusters around one direction they all share, as a text model's vectors are (e5's
    // unrelated texts still have cosines of 0.7 to 0.9; here 0.97): signs taken without the rows'
    // mean find 71% of the true top 10.
    const rows = SHORTLIST_FROM + 5000;
    const shared = vectors(1, dims, 41)[0];
    const centres = vectors(400, dims, 42);
    const noise = vectors(rows, dims, 43);
    const unit = (v: Float32Array) => {
      const norm = Math.sqrt(dot(v, v));
      return v.map((x) => x / norm);
    };
    const data = noise.map((e, i) =>
      unit(Float32Array.from(e, (x, d) => 8 * shared[d] + centres[i % centres.length][d] + x)),
    );
    const partition = new VectorPartition(dims, rows);
    data.forEach((v, i) => partition.upsert(slot(`s${i}`, { agent_id: i % 997 === 0 ? 'rare' : null }), v));
    const queries = vectors(20, dims, 44).map((e, i) =>
      unit(Float32Array.from(e, (x, d) => data[i * 1111][d] + 0.05 * x)),
    );
    const bruteForce = (q: Float32Array, k: number, accept: (i: number) => boolean = () => true) =>
      data
        .map((v, i) => ({ id: `s${i}`, cosine: dot(v, q) }))
        .filter((_, i) => accept(i))
        .sort((a, b) => b.cosine - a.cosine)
        .slice(0, k);

    it("finds the nearest rows: the query's own row first, nearly all of the true top 10", () => {
      let found = 0;
      queries.forEach((q, i) => {
        const got = partition.search(q, 10, () => true);
        expect(got[0].id).toBe(`s${i * 1111}`);
        const truth = new Set(bruteForce(q, 10).map((t) => t.id));
        found += got.filter((h) => truth.has(h.id)).length;
        got.forEach((h) => expect(h.cosine).toBeCloseTo(dot(data[Number(h.id.slice(1))], q), 3));
      });
      expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.97);
    });

    it('answers a filter that keeps few rows exactly: its rows are read however far their codes are', () => {
      const rare = (i: number) => i % 997 === 0;
      for (const q of queries.slice(0, 5)) {
        const got = partition.search(q, 8, (s) => s.agent_id === 'rare');
        const truth = bruteForce(q, 8, rare);
        // The same rows, in the same order but where two cosines are closer than int16 rows tell.
        expect(got.every((h) => Number(h.id.slice(1)) % 997 === 0)).toBe(true);
        got.forEach((h, i) => expect(h.cosine).toBeCloseTo(truth[i].cosine, 4));
      }
    });

    it('gives each of several filters its own top k from one pass', () => {
      const q = queries[3];
      const [even, rare] = partition.searchMany(q, 5, [
        (s) => Number(s.id.slice(1)) % 2 === 0,
        (s) => s.agent_id === 'rare',
      ]);
      expect(even.every((h) => Number(h.id.slice(1)) % 2 === 0)).toBe(true);
      expect(even).toHaveLength(5);
      const truth = bruteForce(q, 5, (i) => i % 997 === 0);
      rare.forEach((h, i) => expect(h.cosine).toBeCloseTo(truth[i].cosine, 4));
    });

    it('codes what is added after the codes were built, and forgets what is removed', () => {
      const fresh = unit(Float32Array.from(vectors(1, dims, 45)[0], (x, d) => 8 * shared[d] + x));
      partition.upsert(slot('late'), fresh);
      expect(partition.search(fresh, 1, () => true)[0].id).toBe('late');
      partition.remove('late');
      expect(partition.search(fresh, 3, () => true).map((h) => h.id)).not.toContain('late');
    });

    it("answers filters from the flags per slot as the filters' own tests do", () => {
      // The queries' own rows ended (superseded), one row with no creation time, some short-term.
      const ended = queries.map((_, i) => i * 1111);
      ended.forEach((i) => partition.upsert(slot(`s${i}`, { valid_to_ms: 5 }), data[i]));
      partition.upsert(slot('s7', { created_ms: Number.NaN }), data[7]);
      const runs = [2, 1112, 2223, 3334];
      runs.forEach((i, k) => partition.upsert(slot(`s${i}`, { run_id: `2026-01-0${k + 1}` }), data[i]));
      const current = slotFilter({ user_id: 'u' });
      expect(current.flags).toEqual({ all: SLOT_FLAGS.current, exact: true });
      expect(slotFilter({ user_id: 'u', agent_id: 'rare' }).flags?.exact).toBe(false);
      const filters = [
        current,
        slotFilter({ user_id: 'u', long_term: true }),
        slotFilter({ user_id: 'u', run_id_from: '2026-01-02' }),
        slotFilter({ user_id: 'u', include_earlier: true }),
        slotFilter({ user_id: 'u', valid_at: new Date(3).toISOString() }),
      ];
      for (const q of [...queries, data[7], data[1112]]) {
        const flagged = partition.searchMany(q, 10, filters);
        const read = partition.searchMany(
          q,
          10,
          filters.map((f) => (s: SlotInfo) => f(s)),
        );
        expect(flagged).toEqual(read);
        expect(flagged[0].map((h) => h.id)).not.toContain('s7');
        for (const i of ended) expect(flagged[0].map((h) => h.id)).not.toContain(`s${i}`);
        expect(flagged[2].map((h) => h.id).sort()).toEqual(['s1112', 's2223', 's3334']);
      }
      [...ended, 7, ...runs].forEach((i) => partition.upsert(slot(`s${i}`), data[i]));
      expect(partition.search(queries[1], 1, current)[0].id).toBe('s1111');
    });
  });

  it('scans listed rows, two at a time and an odd one alone, as the scan of every row scores them', () => {
    const kernel = newInt8DotKernel();
    const dims = 64;
    const rows = 40;
    const [query, rowsAt, listAt, outAt, allAt] = [0, 256, 256 + rows * dims, 4096, 8192];
    const next = seededRandom(3);
    new Int16Array(kernel.memory.buffer, query, dims).set(
      Array.from({ length: dims }, () => Math.round((next() - 0.5) * 65534)),
    );
    new Int8Array(kernel.memory.buffer, rowsAt, rows * dims).set(
      Array.from({ length: rows * dims }, () => Math.round((next() - 0.5) * 254)),
    );
    kernel.scan(rowsAt, query, rows, dims, allAt);
    const all = new Int32Array(kernel.memory.buffer, allAt, rows);
    for (const listed of [[], [5], [0, 39], [1, 2, 9, 17, 30], [3, 4, 5, 6, 20, 21, 38, 39]]) {
      new Int32Array(kernel.memory.buffer, listAt, listed.length).set(listed);
      kernel.scan_rows(rowsAt, query, listAt, listed.length, dims, outAt);
      expect([...new Int32Array(kernel.memory.buffer, outAt, listed.length)]).toEqual(
        listed.map((r) => all[r]),
      );
    }
  });

  it('ships exactly the bytes its WebAssembly text compiles to', async () => {
    const wabt = await loadWabt();
    const bytes = wabt.parseWat('kernel.wat', INT8_DOT_WAT, { simd: true }).toBinary({}).buffer;
    expect(Buffer.from(bytes).toString('base64')).toBe(INT8_DOT_WASM_BASE64);
  });
});
