/** Time expressions of questions, with a fixed clock: Thursday 2023-06-15 10:00 UTC. */
import { timeRangeOf } from '../../../domain/memory/search/time-expressions';

const now = new Date('2023-06-15T10:00:00Z');
const range = (q: string) => {
  const r = timeRangeOf(q, now);
  return r && [r.from?.slice(0, 10), r.to?.slice(0, 10), r.text];
};

describe('timeRangeOf', () => {
  it('reads relative days, weeks (from Monday), months and years', () => {
    expect(range('What did I do yesterday?')).toEqual(['2023-06-14', '2023-06-15', 'yesterday']);
    expect(range('anything today')).toEqual(['2023-06-15', '2023-06-16', 'today']);
    expect(range('What happened last week?')).toEqual(['2023-06-05', '2023-06-12', 'last week']);
    expect(range('plans for this month')).toEqual(['2023-06-01', '2023-07-01', 'this month']);
    expect(range('the trip last year')).toEqual(['2022-01-01', '2023-01-01', 'last year']);
    expect(range('three days ago at lunch')).toEqual(['2023-06-12', '2023-06-13', 'three days ago']);
    expect(range('2 weeks ago')).toEqual(['2023-05-29', '2023-06-05', '2 weeks ago']);
    expect(range('a month ago')).toEqual(['2023-05-01', '2023-06-01', 'a month ago']);
  });

  it('reads absolute years, months and days, the most precise first', () => {
    expect(range('Where did Mel go in May 2023?')).toEqual(['2023-05-01', '2023-06-01', 'in May 2023']);
    expect(range('What happened on 8 May 2023 at the park?')).toEqual([
      '2023-05-08',
      '2023-05-09',
      'on 8 May 2023',
    ]);
    expect(range('the talk on March 3rd, 2022')).toEqual(['2022-03-03', '2022-03-04', 'on March 3rd, 2022']);
    expect(range('books read in 2021')).toEqual(['2021-01-01', '2022-01-01', 'in 2021']);
    expect(range('Sept. 2020')).toEqual(['2020-09-01', '2020-10-01', 'Sept. 2020']);
    expect(range('Sep 2020')).toEqual(['2020-09-01', '2020-10-01', 'Sep 2020']);
  });

  it('turns before, after and since into open bounds', () => {
    expect(range('What did she paint before June 2023?')).toEqual([
      undefined,
      '2023-06-01',
      'before June 2023',
    ]);
    expect(range('what changed after 8 May 2023')).toEqual(['2023-05-09', undefined, 'after 8 May 2023']);
    expect(range('everything since last week')).toEqual(['2023-06-05', undefined, 'since last week']);
  });

  it('finds nothing in questions without a time; an impossible day falls back to its month', () => {
    expect(range('Which port does staging use?')).toBeUndefined();
    expect(range('What is 2023 in binary?')).toBeUndefined();
    expect(range('on 31 April 2023')).toEqual(['2023-04-01', '2023-05-01', 'April 2023']);
  });
});
