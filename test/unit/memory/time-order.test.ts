import { TimeOrder } from '../../../domain/memory/store/time-order';

const all = () => true;

/** A TimeOrder holding each [slot, time] upserted in turn. */
function upserted(...pairs: [number, number][]): TimeOrder {
  const t = new TimeOrder();
  for (const [slot, time] of pairs) t.upsert(slot, time);
  return t;
}

describe('TimeOrder', () => {
  it('keeps slots in creation order, whatever order they are added in', () => {
    const t = upserted([0, 300], [1, 100], [2, 200], [3, 200]);
    expect(t.slots()).toEqual([1, 2, 3, 0]);
    expect(t.size).toBe(4);
  });

  it('answers the nearest neighbours each side, nearest first, through the filter', () => {
    const t = new TimeOrder();
    for (let s = 0; s < 10; s++) t.upsert(s, s * 1000);
    expect(t.neighbours(5, 2, all)).toEqual({ before: [4, 3], after: [6, 7] });
    expect(t.neighbours(5, 1, (s) => s % 2 === 1)).toEqual({ before: [3], after: [7] });
    expect(t.neighbours(0, 1, all)).toEqual({ before: [], after: [1] });
    expect(t.neighbours(9, 1, all)).toEqual({ before: [8], after: [] });
  });

  it('bounds the walk: a filter that keeps nothing nearby answers nothing', () => {
    const t = new TimeOrder();
    for (let s = 0; s < 1000; s++) t.upsert(s, s);
    expect(t.neighbours(500, 1, (s) => s === 0)).toEqual({ before: [], after: [] });
    expect(t.neighbours(500, 1, (s) => s === 495)).toEqual({ before: [495], after: [] });
  });

  it('moves a slot whose time changes and forgets a removed one', () => {
    const t = upserted([0, 10], [1, 20], [2, 30], [0, 40]);
    expect(t.slots()).toEqual([1, 2, 0]);
    t.remove(2);
    t.remove(2);
    t.remove(99);
    expect(t.slots()).toEqual([1, 0]);
    expect(t.neighbours(2, 1, all)).toEqual({ before: [], after: [] });
    expect(t.neighbours(1, 0, all)).toEqual({ before: [], after: [] });
  });

  it('takes a non-finite time as 0 and grows past its first capacity', () => {
    const t = new TimeOrder();
    t.upsert(100_000, NaN);
    for (let s = 0; s < 5000; s++) t.upsert(s, 5000 - s);
    expect(t.size).toBe(5001);
    expect(t.slots()[0]).toBe(100_000);
    expect(t.slots().at(-1)).toBe(0);
  });
});
