/** A backfill's range of days, checked the same way by the gateway, the workflow and the engine. */
import { dayRangeProblem, daysOf, MAX_BACKFILL_DAYS } from '../../shared/day-range';

describe('day ranges', () => {
  it('lists every day of a range, both ends included, across months and a leap day', () => {
    expect(daysOf({ from: '2024-02-27', to: '2024-03-01' })).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(daysOf({ from: '2025-12-31', to: '2025-12-31' })).toEqual(['2025-12-31']);
  });

  it.each([
    [{ from: '2025-02-29', to: '2025-03-01' }, /from: "2025-02-29" is not a calendar day/],
    [{ from: '2025-01-01', to: '2025-13-01' }, /to: "2025-13-01" is not a calendar day/],
    [{ from: "2025-01-01' OR '1'='1", to: '2025-01-02' }, /not a calendar day/],
    [{ from: '2025-01-02', to: '2025-01-01' }, /before from/],
    [{ from: '2000-01-01', to: '2030-01-01' }, new RegExp(`at most ${MAX_BACKFILL_DAYS}`)],
  ])('refuses %j', (range, why) => {
    expect(dayRangeProblem(range)).toMatch(why);
    expect(() => daysOf(range)).toThrow(why);
  });

  it('takes the longest range allowed', () => {
    expect(daysOf({ from: '2020-01-01', to: '2030-01-07' })).toHaveLength(MAX_BACKFILL_DAYS);
  });
});
