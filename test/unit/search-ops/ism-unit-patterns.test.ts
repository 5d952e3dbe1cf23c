import {
  DURATION_PATTERN,
  parseDuration,
  parseSize,
  SIZE_PATTERN,
} from '../../../domain/search-ops/ism-units';

describe('the limits policy durations and sizes are stated with', () => {
  it('accepts what OpenSearch accepts', () => {
    for (const d of ['30m', '12h', '7d', '1.5h', '999999999d', '500ms'])
      expect([d, DURATION_PATTERN.test(d)]).toEqual([d, true]);
    for (const s of ['40gb', '500MB', '1.5tb', '999pb', '999999999999999999b'])
      expect([s, SIZE_PATTERN.test(s)]).toEqual([s, true]);
  });

  it('refuses in the pattern what would overflow a long, so the schema says so', () => {
    for (const d of ['1000000000d', '7', 'd', '7 days'])
      expect([d, DURATION_PATTERN.test(d)]).toEqual([d, false]);
    for (const s of ['1000pb', '1000000000gb', '40', 'gb'])
      expect([s, SIZE_PATTERN.test(s)]).toEqual([s, false]);
    // Everything the patterns let through fits a long.
    expect(parseDuration('999999999d')! < 2 ** 63).toBe(true);
    expect(parseSize('999pb')! < 2 ** 63).toBe(true);
    expect(parseSize('999999tb')! < 2 ** 63).toBe(true);
  });
});
