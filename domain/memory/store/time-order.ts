/**
 * A user's index slots in creation order (docs/memory-search.md#neighbours): a sorted typed array
 * of slots by (created_ms, slot), kept current on every add and removal, so "the memories created
 * just before and after this one" costs a binary search and a short walk. Adds are mostly the
 * newest memory (appended); a backfill inserts with one `copyWithin`.
 */

/** The memories next to a slot in time, nearest first on each side. */
export interface SlotNeighbours {
  before: number[];
  after: number[];
}

export class TimeOrder {
  private order: Int32Array = new Int32Array(16);
  private length = 0;
  /** Per slot: its created_ms (NaN: not held). */
  private times: Float64Array = new Float64Array(16).fill(NaN);

  get size(): number {
    return this.length;
  }

  /** Adds a slot at `createdMs`, or moves it there when it is held at another time. */
  upsert(slot: number, createdMs: number): void {
    const ms = Number.isFinite(createdMs) ? createdMs : 0;
    if (slot < this.times.length && this.times[slot] === ms) return;
    this.remove(slot);
    this.ensureSlot(slot);
    if (this.length === this.order.length) this.order = grow(this.order, this.order.length * 2);
    const at = this.lowerBound(ms, slot);
    this.order.copyWithin(at + 1, at, this.length);
    this.order[at] = slot;
    this.length++;
    this.times[slot] = ms;
  }

  /** Removes a slot (nothing when it is not held). */
  remove(slot: number): void {
    const at = this.positionOf(slot);
    if (at < 0) return;
    this.order.copyWithin(at, at + 1, this.length);
    this.length--;
    this.times[slot] = NaN;
  }

  /** The slots in creation order (a copy). */
  slots(): number[] {
    return Array.from(this.order.subarray(0, this.length));
  }

  /**
   * Up to `span` slots each side of `slot` that `accept` keeps, nearest first, looking at no more
   * than `maxSteps` slots each side (bounded work whatever the filter). Empty when not held.
   */
  neighbours(
    slot: number,
    span: number,
    accept: (slot: number) => boolean,
    maxSteps = 8 * span,
  ): SlotNeighbours {
    const at = this.positionOf(slot);
    const out: SlotNeighbours = { before: [], after: [] };
    if (at < 0 || span <= 0) return out;
    for (let i = at - 1, steps = 0; i >= 0 && out.before.length < span && steps < maxSteps; i--, steps++)
      if (accept(this.order[i])) out.before.push(this.order[i]);
    for (
      let i = at + 1, steps = 0;
      i < this.length && out.after.length < span && steps < maxSteps;
      i++, steps++
    )
      if (accept(this.order[i])) out.after.push(this.order[i]);
    return out;
  }

  private positionOf(slot: number): number {
    if (slot < 0 || slot >= this.times.length || Number.isNaN(this.times[slot])) return -1;
    const at = this.lowerBound(this.times[slot], slot);
    return at < this.length && this.order[at] === slot ? at : -1;
  }

  /** The first position whose (time, slot) is not below (ms, slot). */
  private lowerBound(ms: number, slot: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const s = this.order[mid];
      const t = this.times[s];
      if (t < ms || (t === ms && s < slot)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private ensureSlot(slot: number): void {
    if (slot < this.times.length) return;
    const times = new Float64Array(Math.max(slot + 1, this.times.length * 2)).fill(NaN);
    times.set(this.times);
    this.times = times;
  }
}

function grow(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
