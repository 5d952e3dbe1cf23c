/**
 * Levels, flows and attributes by how the values behave (docs/offline-analyst.md#levels-and-flows):
 * what the explorer measures of the rows it read, and what the analyst makes of a number whose name
 * tells nothing.
 */
import { numberBehaviour } from '../../../domain/sources/value-behaviour';
import {
  columnMeaning,
  mayGoBelowZero,
  measuresReadByValues,
} from '../../../domain/agents/offline-analyst/column-meaning';
import type { DateColumnStats, SourceColumn, SourceTable } from '../../../shared/source-schema';
import { column, sourceTable } from '../../fixtures/source-tables';

/** A fixed stream of numbers in [0, 1): the same "noise" every run. */
function noise(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const isoDay = (i: number) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
const textDay: DateColumnStats = { encoding: 'text', format: '%Y-%m-%d', non_null: 1, future: 0 };

/** Readings of two cities over 100 days: a temperature that drifts, rain that comes and goes. */
function weatherRows() {
  const rnd = noise(7);
  const rows: Record<string, unknown>[] = [];
  for (const city of ['Oslo', 'Lima']) {
    let temp = city === 'Oslo' ? 2 : 20;
    for (let i = 0; i < 100; i++) {
      temp += rnd() - 0.5;
      const wet = rnd() < 0.4;
      rows.push({
        day: isoDay(i),
        city,
        temp: Math.round(temp * 10) / 10,
        rain: wet ? Math.round(rnd() * 300) / 10 : 0,
      });
    }
  }
  return rows;
}

const weatherColumns: SourceColumn[] = [
  column('day', 'text'),
  column('city', 'text'),
  column('temp', 'double'),
  column('rain', 'double'),
];

describe('numbers followed over time', () => {
  it('finds the series (one per city) and tells a drifting level from rain that jumps about', () => {
    const { behaviour, series } = numberBehaviour(
      weatherColumns,
      weatherRows(),
      { day: textDay },
      { city: 2, day: 100 },
    );
    expect(series).toEqual({ along: 'day', by: ['city'], rows: 200, series: 2 });
    expect(behaviour.temp.steps!.ratio).toBeLessThan(0.15);
    expect(behaviour.rain.steps!.ratio).toBeGreaterThan(0.6);
    expect(behaviour.rain.zeros).toBeGreaterThan(0.4);
    expect(behaviour.rain.negatives).toBe(0);
  });

  it('takes numeric coordinates as what splits the series (an age group and a sex per census year)', () => {
    const rows = [];
    for (let year = 1850; year <= 2000; year += 10)
      for (const age of [0, 5, 10, 15, 20, 25])
        for (const sex of [1, 2])
          rows.push({ year: String(year), age, sex, people: 1e6 + year * 1000 + age * 7 + sex });
    const { series, behaviour } = numberBehaviour(
      [column('year', 'text'), column('age', 'int'), column('sex', 'int'), column('people', 'int')],
      rows,
      { year: { ...textDay, format: '%Y' } },
      { year: 16, age: 6, sex: 2 },
    );
    // `%Y` is no day format the explorer writes: nothing dates the rows, so no series is claimed.
    expect(series).toBeUndefined();
    expect(behaviour.people.steps).toBeUndefined();
    const parts: DateColumnStats = { encoding: 'parts', parts: { year: 'year' }, non_null: 192, future: 0 };
    const dated = numberBehaviour(
      [column('year', 'int'), column('age', 'int'), column('sex', 'int'), column('people', 'int')],
      rows.map((r) => ({ ...r, year: Number(r.year) })),
      { year: parts },
      { age: 6, sex: 2 },
    );
    expect(dated.series?.by.sort()).toEqual(['age', 'sex']);
    expect(dated.behaviour.age).toBeUndefined();
  });

  it('says nothing of steps for events (no columns tell the rows of a day apart)', () => {
    const rnd = noise(3);
    const rows = Array.from({ length: 120 }, (_, i) => ({
      day: isoDay(i % 10),
      amount: Math.round(rnd() * 1000),
    }));
    const { series, behaviour } = numberBehaviour(
      [column('day', 'text'), column('amount', 'int')],
      rows,
      { day: textDay },
      { day: 10 },
    );
    expect(series).toBeUndefined();
    expect(behaviour.amount.steps).toBeUndefined();
  });
});

describe('numbers that are no measure', () => {
  it('knows an attribute (constant within each country, different between them) and a clock time', () => {
    const rnd = noise(11);
    const countries = ['Chad', 'Peru', 'Laos', 'Fiji', 'Oman'];
    const rows = Array.from({ length: 60 }, (_, i) => ({
      country: countries[i % 5],
      cluster: (i % 5) % 3,
      dep_time: 500 + Math.floor(rnd() * 18) * 100 + Math.floor(rnd() * 60),
      cost: i % 20 === 0 ? 500 : 0,
    }));
    const { behaviour } = numberBehaviour(
      [
        column('country', 'varchar'),
        column('cluster', 'int'),
        column('dep_time', 'int'),
        column('cost', 'int'),
      ],
      rows,
      undefined,
      { country: 5 },
    );
    expect(behaviour.cluster.constant_within).toBe('country');
    expect(behaviour.dep_time.clock).toBe(true);
    // Zero on nearly every row, whatever the country: no attribute of it.
    expect(behaviour.cost.constant_within).toBeUndefined();
  });

  it('reads hostile and empty values without failing', () => {
    const rows = [{ n: 'NaN' }, { n: null }, { n: '1; DROP TABLE x' }, { n: '1e309' }, { n: undefined }];
    const { behaviour } = numberBehaviour([column('n', 'double')], rows, undefined, {});
    expect(behaviour.n).toBeUndefined();
    expect(numberBehaviour([column('n', 'double')], [], undefined, {})).toEqual({ behaviour: {} });
  });
});

describe('what the analyst makes of them', () => {
  const table = (behaviour: SourceTable['number_behaviour'], extra: Partial<SourceTable> = {}): SourceTable =>
    sourceTable(
      'readings',
      1000,
      Object.keys(behaviour ?? {}).map((c) => column(c, 'double')),
      { number_behaviour: behaviour, ...extra },
    );
  const base = { rows: 200, distinct: 150, integers: false, min: 1, max: 900, zeros: 0, negatives: 0 };
  const meaningOf = (t: SourceTable, name: string) =>
    columnMeaning(
      t,
      t.columns.find((c) => c.name === name)!,
      new Set(),
    );

  it('a smooth series or readings near a typical value are levels; skewed amounts are flows', () => {
    const t = table({
      co2: { ...base, spread: 0.8, steps: { pairs: 199, ratio: 0.03 } },
      gust: { ...base, spread: 0.2 },
      deaths: { ...base, spread: 2.4, zeros: 0.3 },
      delay: { ...base, spread: 3, negatives: 0.5 },
    });
    expect(meaningOf(t, 'co2')).toBe('level');
    expect(meaningOf(t, 'gust')).toBe('level');
    expect(meaningOf(t, 'deaths')).toBe('flow');
    // Negative and positive, skewed: neither; left alone rather than guessed.
    expect(meaningOf(t, 'delay')).toBe('number');
  });

  it('a size that moves by small steps is a level (an army’s strength month by month)', () => {
    const t = table({
      army_size: { ...base, spread: 0.25, steps: { pairs: 23, ratio: 0.12 } },
      parcel_weight: { ...base, spread: 0.25, steps: { pairs: 40, ratio: 0.9 } },
    });
    expect(meaningOf(t, 'army_size')).toBe('level');
    expect(meaningOf(t, 'parcel_weight')).toBe('size');
  });

  it('ids, a few codes, attributes, coordinates and clock times are never measures', () => {
    const t = table(
      {
        flight: { ...base, integers: true, distinct: 190, min: 1, max: 5708, spread: 0.95 },
        kind: { ...base, integers: true, distinct: 4, min: 10, max: 13, spread: 0.1 },
        cluster: { ...base, integers: true, distinct: 6, spread: 0.7, constant_within: 'country' },
        dep_time: { ...base, integers: true, spread: 0.15, clock: true },
        age: { ...base, integers: true, spread: 0.6 },
      },
      { value_series: { along: 'year', by: ['age'], rows: 200, series: 19 } },
    );
    expect(meaningOf(t, 'flight')).toBe('number');
    expect(meaningOf(t, 'kind')).toBe('number');
    expect(meaningOf(t, 'cluster')).toBe('code');
    expect(meaningOf(t, 'dep_time')).toBe('calendar');
    expect(meaningOf(t, 'age')).toBe('code');
  });

  it('a score counts points when its values are whole and often 0, and grades otherwise', () => {
    const goals = { ...base, integers: true, distinct: 9, min: 0, max: 8, spread: 0.8 };
    const t = table({
      home_score: { ...goals, zeros: 0.24 },
      credit_score: { ...base, integers: true, distinct: 140, min: 380, max: 850, spread: 0.15 },
      review_score: { ...base, integers: true, distinct: 5, min: 1, max: 5, spread: 0.3 },
      score_pct: { ...goals, zeros: 0.3 },
      rating: { ...goals, zeros: 0.3 },
    });
    expect(meaningOf(t, 'home_score')).toBe('flow');
    expect(meaningOf(t, 'credit_score')).toBe('rate');
    expect(meaningOf(t, 'review_score')).toBe('rate');
    // A percentage or a rating is a grade whatever its values.
    expect(meaningOf(t, 'score_pct')).toBe('rate');
    expect(meaningOf(t, 'rating')).toBe('rate');
    // Read by its values against its name: listed for the person approving.
    expect(measuresReadByValues(t)).toEqual([
      { column: 'home_score', meaning: 'flow', why: expect.stringContaining('24% of them 0') },
    ]);
  });

  it('a count in a table of readings is a headcount when it moves by small steps, unsure between', () => {
    const counted = { ...base, integers: true, distinct: 140, min: 2, max: 1100, spread: 0.8 };
    const t = table({
      staff_count: { ...counted, steps: { pairs: 198, ratio: 0.05 } },
      unemployed_count: { ...counted, steps: { pairs: 198, ratio: 0.18 } },
      visit_count: { ...counted, steps: { pairs: 198, ratio: 0.9 } },
      order_count: counted,
    });
    expect(meaningOf(t, 'staff_count')).toBe('level');
    expect(meaningOf(t, 'unemployed_count')).toBe('quantity');
    expect(meaningOf(t, 'visit_count')).toBe('quantity');
    expect(meaningOf(t, 'order_count')).toBe('quantity');
    const listed = measuresReadByValues(t);
    expect(listed.map((m) => [m.column, m.meaning])).toEqual([
      ['staff_count', 'level'],
      ['unemployed_count', 'flow'],
    ]);
    expect(listed[1].why).toMatch(/a headcount would be averaged/);
  });

  it('a rate alone is a rate, a qualified one a price; a change adds up to the net change', () => {
    const t = table({
      rate: { ...base, spread: 0.5 },
      nonfarm_change: { ...base, spread: 3, negatives: 0.2 },
    });
    t.columns.push(column('rental_rate', 'decimal'));
    expect(meaningOf(t, 'rate')).toBe('rate');
    expect(meaningOf(t, 'rental_rate')).toBe('unit_price');
    expect(meaningOf(t, 'nonfarm_change')).toBe('flow');
    expect(
      mayGoBelowZero(
        t,
        t.columns.find((c) => c.name === 'nonfarm_change')!,
      ),
    ).toBe(true);
    expect(
      mayGoBelowZero(
        t,
        t.columns.find((c) => c.name === 'rate')!,
      ),
    ).toBe(false);
  });

  it('a name that says what the number is wins over its values', () => {
    const t = table({ unit_price: { ...base, spread: 2.5 }, amount: { ...base, spread: 0.1 } });
    expect(meaningOf(t, 'unit_price')).toBe('unit_price');
    expect(meaningOf(t, 'amount')).toBe('money');
  });
});
