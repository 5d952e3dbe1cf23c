/** The in-process vector index: exact nearest neighbours, filters, deletes, and the kernel's bytes. */
import { INT8_DOT_WASM_BASE64 } from '../../../domain/memory/vector/int8-dot-kernel';
import { INT8_DOT_WAT } from '../../../domain/memory/vector/int8-dot-wat';
import { VectorPartition, type SlotInfo } from '../../../domain/memory/vector/vector-partition';
import loadWabt from 'wabt';

/** Deterministic unit vectors (mulberry32). */
function vectors(n: number, dims: number, seed = 7): Float32Array[] {
  let s = seed;
  const rand = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dims }, rand);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);
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

  it('ships exactly the bytes its WebAssembly text compiles to', async () => {
    const wabt = await loadWabt();
    const bytes = wabt.parseWat('kernel.wat', INT8_DOT_WAT, { simd: true }).toBinary({}).buffer;
    expect(Buffer.from(bytes).toString('base64')).toBe(INT8_DOT_WASM_BASE64);
  });
});
