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

describe('timeRangeOf on the timeline (the dates stage)', () => {
  const now = new Date('2023-08-20T12:00:00Z'); // a Sunday
  const on = (q: string) => timeRangeOf(q, now, { timeline: true });

  it('places a month without a year at its last occurrence', () => {
    expect(on('When did Melanie go camping in June?')).toEqual({
      from: '2023-06-01T00:00:00.000Z',
      to: '2023-07-01T00:00:00.000Z',
      text: 'in June',
    });
    expect(on('what happened during December?')?.from).toBe('2022-12-01T00:00:00.000Z');
    expect(on('what did I do in May 2023?')?.text).toBe('in May 2023'); // a year: the usual phrase
    expect(timeRangeOf('camping in June?', now)).toBeUndefined(); // off without the timeline
  });

  it('reads the week, weekend or day before a date up to and including that date', () => {
    expect(on('What did John do the week before August 3, 2023?')).toEqual({
      from: '2023-07-27T00:00:00.000Z',
      to: '2023-08-04T00:00:00.000Z',
      text: 'the week before August 3, 2023',
    });
    expect(on('What did Maria do last weekend before 10 April, 2023?')?.from).toBe(
      '2023-04-07T00:00:00.000Z',
    );
  });

  it('reads last weekend as the Saturday and Sunday before this week', () => {
    expect(on('What event did John volunteer at last weekend?')).toEqual({
      from: '2023-08-12T00:00:00.000Z',
      to: '2023-08-14T00:00:00.000Z',
      text: 'last weekend',
    });
  });

  it('finds nothing in hostile text', () => {
    expect(on('')).toBeUndefined();
    expect(on('may I ask in mayonnaise 東京 '.repeat(10_000))).toBeUndefined();
    expect(on('the week before 31 February, 2023')).toEqual(
      expect.objectContaining({ text: expect.any(String) }),
    );
  });
});
