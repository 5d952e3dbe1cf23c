/**
 * A nearest-neighbour index over one user's vectors, in two stages:
 *
 * 1. a scan of every row quantized to int8 (one byte per dimension, scaled per row) by the SIMD
 *    kernel in a WebAssembly memory: an estimate of each cosine within about 0.002, reading half
 *    the bytes int16 rows would (a large scan is bound by memory bandwidth);
 * 2. the best `limit + RESCORED_EXTRA` estimates per filter rescored exactly from int16 copies of
 *    the unit vectors (cosine within 0.0001), so the answer is the exact top `limit`.
 *
 * From `SHORTLIST_FROM` rows, stage 1 reads only a shortlist: the rows whose sign codes
 * (sign-codes.ts) are nearest the query's, a twenty-fifth of the partition or more, scanned as int8
 * rows; a true nearest row outside it is missed (measured in docs/memory-search.md#speed-and-size).
 *
 * Deleted slots are zeroed, skipped, and reused.
 */
import { newInt8DotKernel, type Int8DotKernel } from './int8-dot-kernel';
import { nearestFirst, SignCodes } from './sign-codes';

const INT16_SCALE = 32767;
const INT8_SCALE = 127;
const QUERY_OFFSET = 0;
/**
 * Candidates beyond `limit` the exact stage rescores: a true top-`limit` vector would have to
 * lose more places than this to estimation error (±0.002) to be missed.
 */
const RESCORED_EXTRA = 32;
const CHUNK_ROWS = 1024;
/**
 * Live rows from which a search scans a shortlist by sign codes: below it the full int8 scan costs
 * a few milliseconds at most, and every answer stays exact.
 */
export const SHORTLIST_FROM = 20_000;
/** The shortlist per filter is at least this share of the partition's slots. */
const SHORTLIST_SHARE = 1 / 25;
/** ... and at least this many times the rows the exact stage rescores. */
const SHORTLIST_PER_WANTED = 16;

/** What a slot holds besides its vector, for filtering. */
export interface SlotInfo {
  id: string;
  agent_id: string | null;
  run_id: string | null;
  /** created_at as epoch milliseconds, for time-range filters. */
  created_ms: number;
  /** valid_from and valid_to as epoch milliseconds (Infinity: still valid), for validity filters. */
  valid_from_ms: number;
  valid_to_ms: number;
}

/** What a slot is, as bits of a byte per slot: a search reads them instead of each slot's info. */
export const SLOT_FLAGS = {
  /** Still valid (no `valid_to`), with a creation time. */
  current: 1,
  /** Long-term: no `run_id`. */
  longTerm: 2,
  /** Short-term: a `run_id`. */
  shortTerm: 4,
} as const;

/**
 * Which slots a search keeps. `flags`: bits of {@link SLOT_FLAGS} every slot it keeps has, read
 * first from a byte per slot instead of each slot's info, scattered over the heap (a search reads
 * thousands of rows); `exact`: it keeps exactly the slots that have them, so their info is not read.
 */
export type SlotPredicate = ((info: SlotInfo) => boolean) & {
  readonly flags?: { all: number; exact: boolean };
};

/** The flags of a slot holding `info`. */
function flagsOf(info: SlotInfo): number {
  // As a filter reads them: valid now, and created at a time (not NaN).
  const current = info.valid_to_ms === Infinity && info.created_ms >= -Infinity && info.created_ms < Infinity;
  return (
    (current ? SLOT_FLAGS.current : 0) | (info.run_id === null ? SLOT_FLAGS.longTerm : SLOT_FLAGS.shortTerm)
  );
}

export class VectorPartition {
  private readonly kernel: Int8DotKernel = newInt8DotKernel();
  private readonly vectorsOffset: number;
  private slots: (SlotInfo | undefined)[] = [];
  private readonly slotById = new Map<string, number>();
  private readonly free: number[] = [];
  /** Per slot: its {@link SLOT_FLAGS} (0: free). */
  private flags = new Uint8Array(0);
  /** Per slot: the int8 row's dot product times this is its cosine estimate (times the query's). */
  private estimateScale = new Float32Array(0);
  /**
   * Per slot: the unit vector × 32767 as int16, for exact rescoring, in chunks of CHUNK_ROWS rows
   * so growing never copies what is stored (a copy of a large partition would stall an add).
   */
  private readonly exact: Int16Array[] = [];
  /** Sign codes of every slot, built once the partition reaches SHORTLIST_FROM live rows. */
  private readonly codes: SignCodes;
  /**
   * A shortlist search's working arrays, one entry a slot, kept between searches (a large user's
   * search would otherwise allocate half a megabyte): per slot its filters' bits (left zero after
   * each search), and the rows a filter keeps.
   */
  private scratch = { bitsOf: new Uint8Array(0), kept: new Int32Array(0) };

  /** `expectedRows`: rows about to be loaded, so memory is sized once instead of grown. */
  constructor(
    readonly dims: number,
    expectedRows = 0,
  ) {
    if (dims % 32 !== 0) throw new Error(`vector dimensions must be a multiple of 32 (got ${dims})`);
    // The int16 query sits first, padded to 64 bytes; int8 rows follow; scores go after the last row.
    this.vectorsOffset = Math.ceil((dims * 2) / 64) * 64;
    this.codes = new SignCodes(dims);
    // Room for an eighth more: the first adds after a load then allocate nothing (across many
    // users, a regrowth per first add adds up to garbage-collection pressure).
    if (expectedRows > 0) this.ensureCapacity(expectedRows + (expectedRows >> 3) + 16, 1);
  }

  get size(): number {
    return this.slotById.size;
  }

  /** Adds or replaces the vector of `info.id`; answers its slot (other indexes key by it). */
  upsert(info: SlotInfo, vector: Float32Array): number {
    if (vector.length !== this.dims)
      throw new Error(`expected a ${this.dims}-d vector, got ${vector.length}`);
    let slot = this.slotById.get(info.id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.slots.length;
      this.slotById.set(info.id, slot);
    }
    this.slots[slot] = info;
    this.ensureCapacity(this.slots.length);
    this.flags[slot] = flagsOf(info);
    this.write(slot, vector);
    // Codes are built at SHORTLIST_FROM rows and again each time the rows double, around their
    // mean then: a partition that grew from a few rows is not coded around its first ones.
    const live = this.slotById.size;
    if (live >= SHORTLIST_FROM && live >= 2 * this.codes.rowsWhenBuilt)
      this.codes.build(this.slots.length, this.capacity(), (s) =>
        this.slots[s] ? this.exactRow(s) : undefined,
      );
    return slot;
  }

  /** The slot of a memory id, if indexed. */
  slotOf(id: string): number | undefined {
    return this.slotById.get(id);
  }

  /** What the slot holds (undefined: free). */
  info(slot: number): SlotInfo | undefined {
    return this.slots[slot];
  }

  /** Frees the slot of `id`; answers it (undefined when the id was not indexed). */
  remove(id: string): number | undefined {
    const slot = this.slotById.get(id);
    if (slot === undefined) return undefined;
    this.slotById.delete(id);
    this.slots[slot] = undefined;
    this.flags[slot] = 0;
    new Int8Array(this.kernel.memory.buffer, this.vectorsOffset + slot * this.dims, this.dims).fill(0);
    this.exactRow(slot).fill(0);
    this.estimateScale[slot] = 0;
    this.free.push(slot);
    return slot;
  }

  /** The `limit` most similar slots passing `accept`, most similar first (cosine similarity). */
  search(query: Float32Array, limit: number, accept: SlotPredicate): { id: string; cosine: number }[] {
    return this.searchMany(query, limit, [accept])[0];
  }

  /**
   * One scan, several filters: the top `limit` for each predicate (search_combined asks for
   * long-term and recent short-term at once, so it costs one pass over the vectors, not two).
   */
  searchMany(
    query: Float32Array,
    limit: number,
    accepts: SlotPredicate[],
  ): { id: string; cosine: number }[][] {
    const n = this.slots.length;
    if (n === 0 || limit <= 0) return accepts.map(() => []);
    if (query.length !== this.dims) throw new Error(`expected a ${this.dims}-d vector, got ${query.length}`);
    if (!this.writeQuery(query)) return accepts.map(() => []);
    const wanted = limit + RESCORED_EXTRA;
    const shortlist = shortlistSize(n, wanted);
    // The query as the stored rows are kept: read by the codes and by the exact stage.
    const unitQuery = this.unitInt16(query);
    // The shortlists (a quarter of the slots at most) and their estimates fit where a full scan's
    // scores go; a row's filters are bits of a byte.
    const best =
      this.codes.built &&
      this.size >= SHORTLIST_FROM &&
      accepts.length <= 8 &&
      4 * accepts.length * shortlist <= n
        ? this.shortlistEstimates(unitQuery, shortlist, wanted, accepts)
        : this.allEstimates(wanted, accepts);
    return this.exactTop(unitQuery, limit, best);
  }

  /**
   * The int16 query in the kernel's memory, scaled so its largest component is 32767 (or less
   * where many dimensions could overflow int32); false for a zero vector.
   */
  private writeQuery(query: Float32Array): boolean {
    const maxAbs = query.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    if (maxAbs === 0) return false;
    const q16 = new Int16Array(this.kernel.memory.buffer, QUERY_OFFSET, this.dims);
    const qScale = Math.min(INT16_SCALE, Math.floor((2 ** 31 - 1) / (INT8_SCALE * this.dims)));
    for (let i = 0; i < this.dims; i++) q16[i] = Math.round((query[i] * qScale) / maxAbs);
    return true;
  }

  private scoresOffset(): number {
    return this.vectorsOffset + this.capacity() * this.dims;
  }

  /** Stage 1 over every row: the best `wanted` estimates per filter. */
  private allEstimates(wanted: number, accepts: SlotPredicate[]): { slot: number; score: number }[][] {
    const n = this.slots.length;
    const scoresOffset = this.scoresOffset();
    this.kernel.scan(this.vectorsOffset, QUERY_OFFSET, n, this.dims, scoresOffset);
    const scores = new Int32Array(this.kernel.memory.buffer, scoresOffset, n);
    // The best estimates per filter, by insertion into short sorted lists.
    const best = accepts.map(() => [] as { slot: number; score: number }[]);
    const flags = this.flags;
    for (let slot = 0; slot < n; slot++) {
      // A free slot has no flags: its info is not read to learn it.
      if (flags[slot] === 0) continue;
      const score = scores[slot] * this.estimateScale[slot];
      for (let f = 0; f < accepts.length; f++) {
        const list = best[f];
        if (list.length === wanted && score <= list[wanted - 1].score) continue;
        if (this.keeps(accepts[f], slot)) keepBest(list, wanted, slot, score);
      }
    }
    return best;
  }

  /**
   * Stage 1 over a shortlist: per filter, the `shortlist` rows it accepts whose sign codes are
   * nearest the query's (sign-codes.ts), estimated by the int8 scan of those rows alone (in the
   * order they are stored: memory is read forwards); the best `wanted` of each.
   */
  private shortlistEstimates(
    unitQuery: Int16Array,
    shortlist: number,
    wanted: number,
    accepts: SlotPredicate[],
  ): { slot: number; score: number }[][] {
    const n = this.slots.length;
    const dist = this.codes.measure(unitQuery, n);
    // Per slot, a bit for each filter whose shortlist holds it.
    const { bitsOf } = this.scratchFor(n);
    this.shortlists(accepts, dist, shortlist, wanted, bitsOf);
    // The listed rows, ascending, and then their estimates where a full scan's scores go.
    const rowsAt = this.scoresOffset();
    const listed = new Int32Array(this.kernel.memory.buffer, rowsAt, this.capacity() >> 1);
    let m = 0;
    for (let slot = 0; slot < n; slot++) if (bitsOf[slot]) listed[m++] = slot;
    const outAt = rowsAt + m * 4;
    this.kernel.scan_rows(this.vectorsOffset, QUERY_OFFSET, rowsAt, m, this.dims, outAt);
    const dots = new Int32Array(this.kernel.memory.buffer, outAt, m);
    const best = accepts.map(() => [] as { slot: number; score: number }[]);
    for (let k = 0; k < m; k++) {
      const slot = listed[k];
      const score = dots[k] * this.estimateScale[slot];
      for (let f = 0; f < accepts.length; f++)
        if (bitsOf[slot] & (1 << f)) keepBest(best[f], wanted, slot, score);
      bitsOf[slot] = 0;
    }
    return best;
  }

  /**
   * Marks in `bitsOf` each filter's shortlist: the rows it accepts among the nearest by code, read
   * further out while it keeps too few of them (as far as a filter keeping a fifth of the rows
   * needs, at the rate it kept them); a filter that keeps fewer (recent short-term memories, one
   * agent's) by a pass over its own rows.
   */
  private shortlists(
    accepts: SlotPredicate[],
    dist: Int32Array,
    shortlist: number,
    wanted: number,
    bitsOf: Uint8Array,
  ): void {
    let pending = accepts.map((accept, f) => ({ accept, bit: 1 << f }));
    let count = shortlist;
    while (pending.length && 4 * count <= bitsOf.length) {
      const within = this.codes.within(count);
      // Rows tied at one distance can make it hold far more (identical vectors).
      if (4 * within.length > bitsOf.length) break;
      let mostKept = 0;
      const { kept } = this.scratch;
      pending = pending.filter(({ accept, bit }) => {
        let m = 0;
        for (let k = 0; k < within.length; k++) if (this.keeps(accept, within[k])) kept[m++] = within[k];
        if (m < shortlist) mostKept = Math.max(mostKept, m / Math.max(1, within.length));
        else
          for (const slot of nearestFirst(kept.subarray(0, m), dist, this.dims).subarray(0, shortlist))
            bitsOf[slot] |= bit;
        return m < shortlist;
      });
      // Far enough out for the pending filter that keeps the most, at its rate, with a margin.
      count = Math.max(count + 1, Math.ceil((1.25 * shortlist) / Math.max(mostKept, 1 / 64)));
    }
    for (const { accept, bit } of pending)
      for (const slot of this.nearestOf(accept, dist, wanted)) bitsOf[slot] |= bit;
  }

  /**
   * The rows `accept` keeps whose codes are nearest the query's: a shortlist in proportion to how
   * many it keeps, as the partition's is to all (all of them, if few).
   */
  private nearestOf(accept: SlotPredicate, dist: Int32Array, wanted: number): Int32Array {
    const { kept } = this.scratch;
    let m = 0;
    for (let slot = 0; slot < this.slots.length; slot++) {
      if (this.keeps(accept, slot)) kept[m++] = slot;
    }
    const count = shortlistSize(m, wanted);
    if (m <= count) return kept.subarray(0, m);
    return nearestFirst(kept.subarray(0, m), dist, this.dims).subarray(0, count);
  }

  /** Whether `accept` keeps the slot (false when free): by its flags, and by its info unless they say it all. */
  keeps(accept: SlotPredicate, slot: number): boolean {
    const wanted = accept.flags;
    if (!wanted) {
      const info = this.slots[slot];
      return info !== undefined && accept(info);
    }
    const flags = this.flags[slot];
    if (flags === 0 || (flags & wanted.all) !== wanted.all) return false;
    return wanted.exact || accept(this.slots[slot]!);
  }

  /** The working arrays, with room for `slots` slots. */
  private scratchFor(slots: number): { bitsOf: Uint8Array; kept: Int32Array } {
    if (this.scratch.bitsOf.length < slots) {
      const room = Math.max(slots, this.capacity());
      this.scratch = { bitsOf: new Uint8Array(room), kept: new Int32Array(room) };
    }
    return this.scratch;
  }

  /** Stage 2: exact cosines of each filter's candidates (a slot shared by lists is computed once). */
  private exactTop(
    unitQuery: Int16Array,
    limit: number,
    best: { slot: number; score: number }[][],
  ): { id: string; cosine: number }[][] {
    const cosines = new Map<number, number>();
    const cosineOf = (slot: number) => {
      let c = cosines.get(slot);
      if (c === undefined) cosines.set(slot, (c = this.exactCosine(slot, unitQuery)));
      return c;
    };
    return best.map((list) =>
      list
        .map(({ slot }) => ({ slot, cosine: cosineOf(slot) }))
        .sort((a, b) => b.cosine - a.cosine || a.slot - b.slot)
        .slice(0, limit)
        .map(({ slot, cosine }) => ({ id: this.slots[slot]!.id, cosine })),
    );
  }

  /** The vector scaled to length 32767, as int16, into `out`. */
  private unitInt16(vector: Float32Array, out: Int16Array = new Int16Array(this.dims)): Int16Array {
    let norm = 0;
    for (let i = 0; i < this.dims; i++) norm += vector[i] * vector[i];
    const k = norm > 0 ? INT16_SCALE / Math.sqrt(norm) : 0;
    for (let i = 0; i < this.dims; i++) out[i] = Math.round(vector[i] * k);
    return out;
  }

  private exactRow(slot: number): Int16Array {
    const offset = (slot % CHUNK_ROWS) * this.dims;
    return this.exact[Math.floor(slot / CHUNK_ROWS)].subarray(offset, offset + this.dims);
  }

  private exactCosine(slot: number, unitQuery: Int16Array): number {
    const chunk = this.exact[Math.floor(slot / CHUNK_ROWS)];
    const base = (slot % CHUNK_ROWS) * this.dims;
    let dot = 0;
    for (let i = 0; i < this.dims; i++) dot += chunk[base + i] * unitQuery[i];
    return dot / (INT16_SCALE * INT16_SCALE);
  }

  /** Stores both forms: int8 scaled by its largest component, and the int16 unit vector. */
  private write(slot: number, vector: Float32Array): void {
    let norm = 0;
    let maxAbs = 0;
    for (let i = 0; i < this.dims; i++) {
      norm += vector[i] * vector[i];
      maxAbs = Math.max(maxAbs, Math.abs(vector[i]));
    }
    norm = Math.sqrt(norm);
    const row = new Int8Array(this.kernel.memory.buffer, this.vectorsOffset + slot * this.dims, this.dims);
    const k8 = maxAbs > 0 ? INT8_SCALE / maxAbs : 0;
    for (let i = 0; i < this.dims; i++) row[i] = Math.round(vector[i] * k8);
    // dot(int8 row, int16 query) · this / (query scale · |query|) estimates the cosine; the query's
    // factor is the same for every row, so the ranking needs only this one.
    this.estimateScale[slot] = maxAbs > 0 ? 1 / (k8 * norm) : 0;
    this.codes.write(slot, this.unitInt16(vector, this.exactRow(slot)));
  }

  private capacity(): number {
    return this.estimateScale.length;
  }

  /** Room for `rows` rows: kernel memory (query, int8 rows, scores) and the JS-side arrays. */
  private ensureCapacity(rows: number, growth = 1.5): void {
    const have = this.capacity();
    if (rows <= have) return;
    // Grow geometrically so a stream of inserts does not grow row by row.
    const want = Math.max(rows, Math.ceil(have * growth));
    const scale = new Float32Array(want);
    scale.set(this.estimateScale);
    this.estimateScale = scale;
    const flags = new Uint8Array(want);
    flags.set(this.flags);
    this.flags = flags;
    // Chunk k holds rows [k·CHUNK_ROWS, (k+1)·CHUNK_ROWS); only the last may be short, and only it is copied.
    for (let k = 0; k * CHUNK_ROWS < want; k++) {
      const need = Math.min(CHUNK_ROWS, want - k * CHUNK_ROWS) * this.dims;
      const have = this.exact[k];
      if (have && have.length >= need) continue;
      const grown = new Int16Array(need);
      if (have) grown.set(have);
      this.exact[k] = grown;
    }
    // Scores sit after the rows, so rows written so far stay where they are when capacity grows.
    const bytes = this.vectorsOffset + want * this.dims + want * 4;
    const memory = this.kernel.memory;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    if (this.codes.built) this.codes.ensureCapacity(want);
  }
}

/**
 * Rows a shortlist of `rows` holds when `wanted` are rescored: a twenty-fifth of them, or sixteen
 * times `wanted` if that is more (all of them, when that is all).
 */
function shortlistSize(rows: number, wanted: number): number {
  return Math.min(rows, Math.max(wanted * SHORTLIST_PER_WANTED, Math.ceil(rows * SHORTLIST_SHARE)));
}

/** Keeps `list` the best `wanted` estimates, highest first, by insertion. */
function keepBest(
  list: { slot: number; score: number }[],
  wanted: number,
  slot: number,
  score: number,
): void {
  if (list.length === wanted && score <= list[wanted - 1].score) return;
  let at = list.length;
  while (at > 0 && list[at - 1].score < score) at--;
  list.splice(at, 0, { slot, score });
  if (list.length > wanted) list.pop();
}
