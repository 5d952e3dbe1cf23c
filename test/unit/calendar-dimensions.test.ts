/**
 * Calendar dimensions and integer date keys (docs/offline-analyst.md#calendar-dimensions): a
 * calendar is recognised by its data, not its name; a fact keyed into one is dated by its date; a
 * `yyyymmdd` integer is a day only when its values are, and the PRD accepts it only when parsed.
 */
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { calendarOf } from '../../domain/agents/offline-analyst/calendar-tables';
import { dateKeyDay, eventDateSource } from '../../shared/date-keys';
import { alignEventDates } from '../../shared/prd-event-dates';
import { prdSchema } from '../../shared/prd-schema';
import { expressionSql } from '../../shared/prd-sql/expression-sql';
import { parseExpression } from '../../shared/prd-sql/expression';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../shared/source-schema';

const col = (name: string, data_type: string, key: SourceColumn['key'] = ''): SourceColumn => ({
  name,
  type: data_type === 'decimal' ? 'decimal(12,2)' : data_type,
  data_type,
  nullable: false,
  key,
});
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const FROM = Date.UTC(2023, 0, 1);

/** A calendar of `days` days under any name; `parts` chooses which part columns it has. */
function calendar(name: string, days = 365, parts = true): SourceTable {
  const rows = Array.from({ length: 5 }, (_, i) => {
    const d = new Date(FROM + i * 40 * DAY);
    return {
      k: iso(d.getTime()).replace(/-/g, ''),
      d: `${iso(d.getTime())}T00:00:00.000Z`,
      y: String(d.getUTCFullYear()),
      m: String(d.getUTCMonth() + 1),
      w: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()],
    };
  });
  return {
    name,
    row_count: days,
    columns: [
      col('k', 'int', 'PRI'),
      col('d', 'date'),
      ...(parts ? [col('y', 'smallint'), col('w', 'varchar')] : []),
    ],
    primary_key: ['k'],
    foreign_keys: [],
    sample_rows: rows.map(({ k, d, y, w }): Record<string, string> => (parts ? { k, d, y, w } : { k, d })),
    date_stats: {
      k: {
        encoding: 'yyyymmdd',
        non_null: days,
        placeholder: 0,
        first: iso(FROM),
        last: iso(FROM + (days - 1) * DAY),
        future: 0,
      },
      d: { non_null: days, placeholder: 0, first: iso(FROM), last: iso(FROM + (days - 1) * DAY), future: 0 },
    },
  };
}

describe('calendar dimensions', () => {
  it('recognises a calendar by one row per day and its parts, whatever it is called', () => {
    expect(calendarOf(calendar('xq_t1'))).toMatchObject({ table: 'xq_t1', dateColumn: 'd' });
    expect(calendarOf(calendar('xq_t1'))!.parts.map((p) => p.column)).toEqual(['k', 'y', 'w']);
  });

  it('reads month and weekday names in the languages of the schema words, not English alone', () => {
    const named = (language: string, field: 'month' | 'weekday', width: 'long' | 'short') => (day: string) =>
      new Intl.DateTimeFormat(language, { [field]: width, timeZone: 'UTC' }).format(
        new Date(`${day}T00:00:00Z`),
      );
    for (const [language, width] of [
      ['de', 'long'],
      ['es', 'short'],
      ['pt', 'long'],
      ['fr', 'short'],
      ['it', 'long'],
    ] as const) {
      const t = calendar('kalender');
      t.columns.push(col('mes', 'varchar'));
      for (const r of t.sample_rows) {
        const day = String(r.d).slice(0, 10);
        r.w = named(language, 'weekday', width)(day).toUpperCase();
        r.mes = named(language, 'month', width)(day);
      }
      expect(calendarOf(t)?.parts).toEqual(
        expect.arrayContaining([
          { column: 'w', part: 'weekday name' },
          { column: 'mes', part: 'month name' },
        ]),
      );
    }
    // Names of the wrong days are no part.
    const wrong = calendar('kalender');
    wrong.sample_rows.forEach((r, i) => (r.w = ['Montag', 'Dienstag', 'Montag', 'Freitag', 'Montag'][i]));
    expect(calendarOf(wrong)?.parts.map((p) => p.column) ?? []).not.toContain('w');
  });

  it('refuses a table of dates without parts, with gaps, or with several rows a day', () => {
    const noParts = calendar('days', 365, false);
    // The yyyymmdd key alone is one part: not enough.
    expect(calendarOf(noParts)).toBeUndefined();
    const gaps = calendar('days');
    gaps.date_stats!.d = { ...gaps.date_stats!.d, last: iso(FROM + 800 * DAY) };
    expect(calendarOf(gaps)).toBeUndefined();
    const repeated = calendar('days', 365);
    repeated.row_count = 2000;
    expect(calendarOf(repeated)).toBeUndefined();
  });

  it('dates a fact keyed into a calendar by the calendar date through the key', () => {
    const fact: SourceTable = {
      name: 'f1',
      row_count: 100,
      columns: [col('id', 'int', 'PRI'), col('day_ref', 'int', 'MUL'), col('amount', 'decimal')],
      primary_key: ['id'],
      foreign_keys: [{ columns: ['day_ref'], references_table: 'zz', references_columns: ['k'] }],
      sample_rows: [{ id: '1', day_ref: '20230105', amount: '9.99' }],
    };
    const snapshot: SourceSnapshot = {
      database: 'x',
      server_version: '',
      tables: [calendar('zz'), fact],
      views: [],
    };
    const prd = buildOfflinePrd(snapshot);
    const entry = prd.facts.find((f) => f.table === 'f1')!;
    expect(entry.event_time).toMatchObject({ table: 'zz', column: 'd', path: ['f1.day_ref -> zz.k'] });
    expect(prd.table_roles.find((r) => r.table === 'zz')).toMatchObject({ role: 'dimension' });
    const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === 'f1')!;
    expect(dwd.fields.find((f) => f.name === 'event_date')!.source).toBe('CAST(zz.d AS DATE)');
  });
});

describe('integer yyyymmdd days', () => {
  /** Refunds dated by an integer refund_day, with the explorer's `date_stats` if it measured any. */
  const refunds = (date_stats?: SourceTable['date_stats']): SourceTable => ({
    name: 'refunds',
    row_count: 50,
    columns: [col('refund_id', 'int', 'PRI'), col('refund_day', 'int'), col('refund_amount', 'decimal')],
    primary_key: ['refund_id'],
    foreign_keys: [],
    sample_rows: [{ refund_id: '1', refund_day: '20240131', refund_amount: '3.00' }],
    ...(date_stats ? { date_stats } : {}),
  });
  const prdOf = (table: SourceTable) =>
    buildOfflinePrd({ database: 'x', server_version: '', tables: [table], views: [] });

  it('reads only real days in range', () => {
    expect(dateKeyDay('20240131')).toBe('2024-01-31');
    expect(dateKeyDay(20240229)).toBe('2024-02-29');
    for (const v of [
      '20230229',
      '20241301',
      '00000000',
      '99991231',
      '19000101',
      '2024013',
      '2024-01-31',
      ' 1e7',
      "20240131'; DROP",
      null,
    ])
      expect(dateKeyDay(v)).toBeUndefined();
  });

  it('is parsed by an expression of the PRD grammar, and the PRD accepts it only then', () => {
    const source = eventDateSource('refunds', 'refund_day', { encoding: 'yyyymmdd' });
    expect(expressionSql(parseExpression(source))).toBe(
      `CAST(try_strptime(CAST("refunds"."refund_day" AS VARCHAR), '%Y%m%d') AS DATE)`,
    );
    const prd = prdOf(
      refunds({
        refund_day: {
          encoding: 'yyyymmdd',
          non_null: 50,
          placeholder: 0,
          first: '2024-01-01',
          last: '2024-03-01',
          future: 0,
        },
      }),
    );
    expect(prd.facts[0].event_time).toMatchObject({ table: 'refunds', column: 'refund_day', path: [] });
    expect(prdSchema.safeParse(prd).success).toBe(true);
    // A person's edit keeps the parse (the column did not change) …
    expect(alignEventDates(prd)).toEqual(prd);
    // … and an event_date that casts the integer is refused: the integer is no date then.
    const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === 'refunds')!;
    const cast = {
      ...prd,
      layers: {
        ...prd.layers,
        dwd: prd.layers.dwd.map((t) =>
          t === dwd
            ? {
                ...t,
                fields: t.fields.map((f) =>
                  f.name === 'event_date' ? { ...f, source: 'CAST(refunds.refund_day AS DATE)' } : f,
                ),
              }
            : t,
        ),
      },
    };
    expect(prdSchema.safeParse(cast).success).toBe(false);
  });

  it('is not read from an integer whose figures the explorer did not measure as days', () => {
    const prd = prdOf(refunds());
    expect(prd.facts[0]?.event_time ?? null).toBeNull();
  });
});
