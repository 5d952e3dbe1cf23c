/**
 * Deletes found by counting: the buckets of a key span, the ranges of those where the ODS holds more
 * rows than the source (adjacent ones joined), and their predicate, quoted for either side.
 */
import {
  bucketParts,
  bucketsWithDeletes,
  keyBuckets,
  KEY_BUCKETS,
  rangePredicate,
} from '../../domain/warehouse/refresh/key-buckets';

describe('key buckets', () => {
  it('cuts a key span into at most KEY_BUCKETS buckets, whole numbers from 0 only', () => {
    expect(keyBuckets('id', '1', '5000000')).toEqual({
      column: 'id',
      width: 5_000_000n / BigInt(KEY_BUCKETS) + 1n,
    });
    expect(keyBuckets('id', '7', '9')).toEqual({ column: 'id', width: 1n });
    expect(keyBuckets('id', '-5', '9')).toBeUndefined();
    expect(keyBuckets('id', null, null)).toBeUndefined();
    expect(keyBuckets('id', '1', '1e9')).toBeUndefined();
  });

  it('names the buckets that lost rows as joined key ranges, ignoring those that gained', () => {
    const b = { column: 'id', width: 10n };
    const ods = new Map([
      ['0', 10],
      ['1', 10],
      ['2', 9],
      ['5', 4],
      ['7', 3],
    ]);
    const source = new Map([
      ['0', 10],
      ['1', 8],
      ['2', 7],
      ['5', 5],
      ['7', 2],
    ]);
    expect(bucketsWithDeletes(ods, source, b)).toEqual([
      [10n, 30n],
      [70n, 80n],
    ]);
    expect(bucketsWithDeletes(new Map([['3', 1]]), new Map(), b)).toEqual([[30n, 40n]]);
  });

  it('writes the ranges as a predicate with the key quoted for MySQL or DuckDB', () => {
    expect(rangePredicate('order`id', [[10n, 30n]], true)).toBe('(`order``id` >= 10 AND `order``id` < 30)');
    expect(
      rangePredicate(
        'a"b',
        [
          [0n, 5n],
          [9n, 12n],
        ],
        false,
      ),
    ).toBe('("a""b" >= 0 AND "a""b" < 5) OR ("a""b" >= 9 AND "a""b" < 12)');
    expect(rangePredicate('id', [], true)).toBe('FALSE');
  });

  it('shares the count among readers by runs of whole buckets, the ends open', () => {
    const b = { column: 'o`id', width: 10n };
    expect(bucketParts(b, 1)).toEqual(['']);
    expect(bucketParts(b, 2)).toEqual(['`o``id` < 20480', '`o``id` >= 20480']);
    const three = bucketParts(b, 3);
    expect(three).toEqual(['`o``id` < 13660', '`o``id` >= 13660 AND `o``id` < 27320', '`o``id` >= 27320']);
    // Every bound is a bucket's first key: no bucket is counted in two parts.
    for (const bound of three.join(' ').match(/\d+/g)!) expect(BigInt(bound) % b.width).toBe(0n);
  });
});
