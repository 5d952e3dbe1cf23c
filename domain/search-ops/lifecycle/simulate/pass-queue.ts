/**
 * The pass at which each index next has something to do, earliest first (a binary heap with lazy
 * removal): the simulator runs only those passes, and steps only the indices due at them.
 */
export class PassQueue {
  private readonly dueAt = new Map<string, number>();
  private readonly byPass = new Map<number, Set<string>>();
  private readonly heap: number[] = [];

  /** Whether the index's next pass is known. */
  has(index: string): boolean {
    return this.dueAt.has(index);
  }

  /** The index is due at `pass` (Infinity: never). */
  set(index: string, pass: number): void {
    this.delete(index);
    this.dueAt.set(index, pass);
    if (pass === Infinity) return;
    const set = this.byPass.get(pass);
    if (set) set.add(index);
    else {
      this.byPass.set(pass, new Set([index]));
      this.push(pass);
    }
  }

  delete(index: string): void {
    const pass = this.dueAt.get(index);
    if (pass === undefined) return;
    this.dueAt.delete(index);
    const set = this.byPass.get(pass);
    set?.delete(index);
    if (set && !set.size) this.byPass.delete(pass);
  }

  /** The earliest pass some index is due at; Infinity when none is. */
  next(): number {
    while (this.heap.length && !this.byPass.has(this.heap[0])) this.pop();
    return this.heap.length ? this.heap[0] : Infinity;
  }

  /** The indices due at `pass`. */
  at(pass: number): ReadonlySet<string> {
    return this.byPass.get(pass) ?? new Set();
  }

  private push(pass: number): void {
    const h = this.heap;
    h.push(pass);
    for (let i = h.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (h[parent] <= h[i]) break;
      [h[parent], h[i]] = [h[i], h[parent]];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (!h.length) return;
    h[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l] < h[m]) m = l;
      if (r < h.length && h[r] < h[m]) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }
}
