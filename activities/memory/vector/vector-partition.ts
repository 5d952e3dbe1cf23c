/**
 * An exact nearest-neighbour index over one user's vectors: unit vectors quantized to int16 in a
 * WebAssembly memory, scanned by the SIMD kernel, top-k chosen in JS with the caller's filter.
 * Deleted slots are zeroed, skipped, and reused.
 */
import { newInt16DotKernel, type Int16DotKernel } from './int16-dot-kernel';

const SCALE = 32767;
const QUERY_OFFSET = 0;

/** What a slot holds besides its vector, for filtering. */
export interface SlotInfo {
  id: string;
  agent_id: string | null;
  run_id: string | null;
  /** created_at as epoch milliseconds, for time-range filters. */
  created_ms: number;
}

export class VectorPartition {
  private readonly kernel: Int16DotKernel = newInt16DotKernel();
  private readonly rowBytes: number;
  private readonly vectorsOffset: number;
  private slots: (SlotInfo | undefined)[] = [];
  private readonly slotById = new Map<string, number>();
  private readonly free: number[] = [];

  /** `expectedRows`: rows about to be loaded, so memory is sized once instead of grown. */
  constructor(
    readonly dims: number,
    expectedRows = 0,
  ) {
    if (dims % 32 !== 0) throw new Error(`vector dimensions must be a multiple of 32 (got ${dims})`);
    this.rowBytes = dims * 2;
    // The query sits first, padded to 64 bytes; rows follow; scores go after the last row.
    this.vectorsOffset = Math.ceil(this.rowBytes / 64) * 64;
    if (expectedRows > 0) this.ensureBytes(this.vectorsOffset + expectedRows * (this.rowBytes + 4), 1);
  }

  get size(): number {
    return this.slotById.size;
  }

  /** Adds or replaces the vector of `info.id`; answers its slot (other indexes key by it). */
  upsert(info: SlotInfo, vector: Float32Array): number {
    let slot = this.slotById.get(info.id);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.slots.length;
      this.slotById.set(info.id, slot);
    }
    this.slots[slot] = info;
    this.ensureCapacity(this.slots.length);
    this.write(this.vectorsOffset + slot * this.rowBytes, vector);
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
    new Int16Array(this.kernel.memory.buffer, this.vectorsOffset + slot * this.rowBytes, this.dims).fill(0);
    this.free.push(slot);
    return slot;
  }

  /** The `limit` most similar slots passing `accept`, most similar first (cosine similarity). */
  search(
    query: Float32Array,
    limit: number,
    accept: (info: SlotInfo) => boolean,
  ): { id: string; cosine: number }[] {
    return this.searchMany(query, limit, [accept])[0];
  }

  /**
   * One scan, several filters: the top `limit` for each predicate (search_combined asks for
   * long-term and recent short-term at once, so it costs one pass over the vectors, not two).
   */
  searchMany(
    query: Float32Array,
    limit: number,
    accepts: ((info: SlotInfo) => boolean)[],
  ): { id: string; cosine: number }[][] {
    const n = this.slots.length;
    if (n === 0 || limit <= 0) return accepts.map(() => []);
    const scoresOffset = this.vectorsOffset + n * this.rowBytes;
    this.ensureBytes(scoresOffset + n * 4);
    this.write(QUERY_OFFSET, query);
    this.kernel.scan(this.vectorsOffset, QUERY_OFFSET, n, this.dims, scoresOffset);
    const scores = new Int32Array(this.kernel.memory.buffer, scoresOffset, n);
    // Top-k by insertion into short sorted lists; most candidates fail the threshold tests at once.
    const best = accepts.map(() => [] as { slot: number; score: number }[]);
    for (let slot = 0; slot < n; slot++) {
      const score = scores[slot];
      const info = this.slots[slot];
      if (!info) continue;
      for (let f = 0; f < accepts.length; f++) {
        const list = best[f];
        if (list.length === limit && score <= list[limit - 1].score) continue;
        if (!accepts[f](info)) continue;
        let at = list.length;
        while (at > 0 && list[at - 1].score < score) at--;
        list.splice(at, 0, { slot, score });
        if (list.length > limit) list.pop();
      }
    }
    return best.map((list) =>
      list.map(({ slot, score }) => ({ id: this.slots[slot]!.id, cosine: score / (SCALE * SCALE) })),
    );
  }

  private write(offset: number, vector: Float32Array): void {
    if (vector.length !== this.dims)
      throw new Error(`expected a ${this.dims}-d vector, got ${vector.length}`);
    const row = new Int16Array(this.kernel.memory.buffer, offset, this.dims);
    let norm = 0;
    for (let i = 0; i < this.dims; i++) norm += vector[i] * vector[i];
    // Stored vectors must be unit length for the int16 bound to hold: normalize defensively.
    const k = norm > 0 ? SCALE / Math.sqrt(norm) : 0;
    for (let i = 0; i < this.dims; i++) row[i] = Math.round(vector[i] * k);
  }

  private ensureCapacity(rows: number): void {
    this.ensureBytes(this.vectorsOffset + rows * this.rowBytes + rows * 4);
  }

  private ensureBytes(bytes: number, growth = 1.5): void {
    const have = this.kernel.memory.buffer.byteLength;
    if (bytes <= have) return;
    // Grow geometrically so a stream of inserts does not grow page by page.
    const want = Math.max(bytes, have * growth);
    this.kernel.memory.grow(Math.ceil((want - have) / 65536));
  }
}
