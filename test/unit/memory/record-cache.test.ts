/**
 * The rows a store keeps (domain/memory/store/record-cache.ts): read once, forgotten on a write, and
 * bounded by their size, not their number: a tenant's huge rows must not fill the service's memory.
 */
import { RecordCache, type ReadRow } from '../../../domain/memory/store/record-cache';
import type { MemoryRecord } from '../../../shared/memory-model';

const row = (id: string, memory = 'x'): ReadRow => ({
  record: { id, memory, metadata: {} } as unknown as MemoryRecord,
  chars: memory.length + 2,
});

/** A store of rows by id, counting which ids it was asked to read. */
function store(rows: ReadRow[]) {
  const asked: string[][] = [];
  return {
    asked,
    read: (ids: string[]) => {
      asked.push(ids);
      return rows.filter((r) => ids.includes(r.record.id));
    },
  };
}

describe('record cache', () => {
  it('reads each missing row once, duplicates and kept rows not again', () => {
    const s = store([row('a'), row('b'), row('c')]);
    const cache = new RecordCache();
    expect([...cache.get(['a', 'b', 'a'], s.read).keys()]).toEqual(['a', 'b']);
    expect([...cache.get(['b', 'c', 'a'], s.read).keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(s.asked).toEqual([['a', 'b'], ['c']]);
    // Unknown ids are simply absent.
    expect(cache.get(['zz'], s.read).size).toBe(0);
  });

  it('forgets a written row: the next read is the store’s', () => {
    const s = store([row('a')]);
    const cache = new RecordCache();
    cache.get(['a'], s.read);
    cache.forget('a');
    cache.get(['a'], s.read);
    expect(s.asked).toEqual([['a'], ['a']]);
  });

  it('keeps no huge row, and no more characters than its budget, however many rows a tenant sends', () => {
    const huge = row('huge', 'y'.repeat(200_000));
    const s = store([huge, ...Array.from({ length: 100 }, (_, i) => row(`r${i}`, 'z'.repeat(1_000)))]);
    const cache = new RecordCache(10_000, 8_000);
    cache.get(['huge'], s.read);
    cache.get(['huge'], s.read);
    expect(s.asked.filter((ids) => ids.includes('huge'))).toHaveLength(2);
    // A hundred rows of about 1,300 characters each against a budget of 10,000: the oldest are
    // dropped, so at most the last few are still kept.
    for (let i = 0; i < 100; i++) cache.get([`r${i}`], s.read);
    s.asked.length = 0;
    cache.get(
      Array.from({ length: 100 }, (_, i) => `r${i}`),
      s.read,
    );
    const readAgain = s.asked.flat();
    expect(readAgain.length).toBeGreaterThan(90);
    expect(readAgain).toContain('r0');
    expect(readAgain).not.toContain('r99');
  });
});
