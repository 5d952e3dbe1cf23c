/**
 * Sign codes of a large partition's vectors (docs/memory-search.md#speed-and-size): one bit per
 * dimension, set where a unit vector is above the partition's mean vector there. The bits a row's
 * code and a query's differ in follow the angle between the two once the direction every vector
 * shares is taken away (e5's vectors of unrelated texts still have cosines of 0.7 to 0.9; signs
 * without the mean lose most of what tells them apart), so the rows nearest a query by code are a
 * shortlist holding its nearest rows by cosine: reading 4 bytes per 32 dimensions instead of 32.
 *
 * The codes live in a kernel memory of their own: the query's code first (padded to 64 bytes),
 * then one code per slot, then the last query's distances, the slots it selected and a histogram.
 */
import { newInt8DotKernel, type Int8DotKernel } from './int8-dot-kernel';

export class SignCodes {
  private readonly kernel: Int8DotKernel = newInt8DotKernel();
  /** 32-bit words per code. */
  private readonly words: number;
  private readonly codesOffset: number;
  private capacity = 0;
  /** The mean of the live unit vectors (int16 scale) when the codes were last built. */
  private mean: Float32Array | undefined;
  /** Live rows when the codes were last built. */
  private builtFor = 0;
  /** Slots the last `measure` counted. */
  private measured = 0;

  constructor(readonly dims: number) {
    if (dims % 32 !== 0) throw new Error(`vector dimensions must be a multiple of 32 (got ${dims})`);
    this.words = dims / 32;
    this.codesOffset = Math.ceil((this.words * 4) / 64) * 64;
  }

  /** Whether every live row has a code (built once, then kept by `write`). */
  get built(): boolean {
    return this.mean !== undefined;
  }

  /** Live rows when the codes were last built: the partition builds them again when it has doubled. */
  get rowsWhenBuilt(): number {
    return this.builtFor;
  }

  /** Room for `rows` codes; the distances after them move, the codes do not. */
  ensureCapacity(rows: number): void {
    if (rows <= this.capacity) return;
    this.capacity = rows;
    const bytes = this.codesOffset + rows * this.words * 4 + rows * 8 + (this.dims + 1) * 4;
    const memory = this.kernel.memory;
    if (bytes > memory.buffer.byteLength) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
  }

  /**
   * Every code again, around the mean of the live rows: `rows(slot)` is a slot's int16 unit vector,
   * undefined for a free slot, for slots [0, slots); room is made for `capacity` slots.
   */
  build(slots: number, capacity: number, rows: (slot: number) => Int16Array | undefined): void {
    this.ensureCapacity(Math.max(slots, capacity));
    const mean = new Float64Array(this.dims);
    let live = 0;
    for (let slot = 0; slot < slots; slot++) {
      const row = rows(slot);
      if (!row) continue;
      live++;
      for (let d = 0; d < this.dims; d++) mean[d] += row[d];
    }
    this.mean = Float32Array.from(mean, (sum) => (live ? sum / live : 0));
    this.builtFor = live;
    for (let slot = 0; slot < slots; slot++) {
      const row = rows(slot);
      if (row) this.write(slot, row);
    }
  }

  /** The code of one slot's int16 unit vector (after `build`; before it, nothing is kept). */
  write(slot: number, row: Int16Array): void {
    if (!this.mean) return;
    this.encode(
      row,
      new Uint32Array(this.kernel.memory.buffer, this.codesOffset + slot * this.words * 4, this.words),
    );
  }

  /**
   * How many bits each code of slots [0, slots) differs from the query's in (free slots by their
   * last code: the caller skips them), counted by distance for `within`. A view of the kernel's
   * memory, valid until the next call.
   */
  measure(unitQuery: Int16Array, slots: number): Int32Array {
    const buffer = this.kernel.memory.buffer;
    this.encode(unitQuery, new Uint32Array(buffer, 0, this.words));
    const { dist, histogram } = this.regions();
    this.kernel.hamming(this.codesOffset, 0, slots, this.words, dist);
    new Int32Array(buffer, histogram, this.dims + 1).fill(0);
    this.kernel.histogram(dist, slots, histogram);
    this.measured = slots;
    return new Int32Array(buffer, dist, slots);
  }

  /**
   * Of the slots last measured, those within the distance that holds at least `count` of them
   * (all at that distance), ascending. A view of the kernel's memory, valid until the next call.
   */
  within(count: number): Int32Array {
    const buffer = this.kernel.memory.buffer;
    const { dist, within, histogram } = this.regions();
    const counts = new Int32Array(buffer, histogram, this.dims + 1);
    let cut = 0;
    for (let held = counts[0]; held < count && cut < this.dims;) held += counts[++cut];
    return new Int32Array(buffer, within, this.kernel.select(dist, this.measured, cut, within));
  }

  /** Where the last query's distances, selected slots and histogram are, after the codes. */
  private regions(): { dist: number; within: number; histogram: number } {
    const dist = this.codesOffset + this.capacity * this.words * 4;
    return { dist, within: dist + this.capacity * 4, histogram: dist + this.capacity * 8 };
  }

  private encode(row: Int16Array, out: Uint32Array): void {
    const mean = this.mean!;
    out.fill(0);
    for (let d = 0; d < this.dims; d++) if (row[d] > mean[d]) out[d >>> 5] |= 1 << (d & 31);
  }
}

/** `slots` ordered by their distance, nearest first (a counting sort: distances are at most `dims`). */
export function nearestFirst(slots: Int32Array, dist: Int32Array, dims: number): Int32Array {
  const start = new Int32Array(dims + 2);
  for (const slot of slots) start[dist[slot] + 1]++;
  for (let d = 1; d < start.length; d++) start[d] += start[d - 1];
  const order = new Int32Array(slots.length);
  for (const slot of slots) order[start[dist[slot]]++] = slot;
  return order;
}
