/**
 * Days read from values (docs/offline-analyst.md#dates-read-from-values): text in the common
 * shapes, day/month orders the sample cannot tell apart, integer year/month/day parts, and the
 * expressions the warehouse reads them with, run on DuckDB.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import {
  datePartOfName,
  epochDateSource,
  epochUnit,
  partsDateSource,
  readDay,
  textDateShapes,
  textDateSource,
  valuesFitPart,
} from '../../shared/text-dates';
import { valueDates } from '../../domain/sources/value-dates';
import { nameWords } from '../../domain/agents/offline-analyst/name-words';
import type { SourceColumn } from '../../shared/source-schema';

const column = (name: string, data_type: string): SourceColumn => ({
  name,
  type: data_type,
  data_type,
  nullable: true,
  key: '',
});

describe('text that holds days', () => {
  it('knows the common shapes, with or without a time of day', () => {
    expect(textDateShapes(['2013-01-01T10:00:00Z', '2013-01-02T11:00:00Z']).map((s) => s.format)).toEqual([
      '%Y-%m-%d',
    ]);
    expect(textDateShapes(['31.12.2021', '01.02.2022 10:22']).map((s) => s.format)).toEqual(['%d.%m.%Y']);
    expect(textDateShapes(['1871-05-16', '', '1871-10-07']).map((s) => s.format)).toEqual(['%Y-%m-%d']);
  });

  it('tells day/month from month/day by a value past 12, and keeps both when none is', () => {
    expect(textDateShapes(['06/01/2020', '25/01/2020']).map((s) => s.format)).toEqual(['%d/%m/%Y']);
    expect(textDateShapes(['1/25/2020', '3/4/2021']).map((s) => s.format)).toEqual(['%m/%d/%Y']);
    expect(textDateShapes(['06/01/2020', '07/01/2020']).map((s) => s.format)).toEqual([
      '%d/%m/%Y',
      '%m/%d/%Y',
    ]);
  });

  it('reads English month names, abbreviated or whole, in any case', () => {
    expect(textDateShapes(['Jan 1 2000', 'Feb 12 2001']).map((s) => s.format)).toEqual(['%b %d %Y']);
    expect(textDateShapes(['January 1, 2000', 'May 3, 2001']).map((s) => s.format)).toEqual(['%B %d, %Y']);
    expect(textDateShapes(['1 Jan 2000', '28 feb 2001']).map((s) => s.format)).toEqual(['%d %b %Y']);
    expect(textDateShapes(['01-JAN-2000', '31-DEC-1999']).map((s) => s.format)).toEqual(['%d-%b-%Y']);
    expect(readDay('Jun 31 1998', '%b %d %Y')).toBeUndefined();
    expect(readDay('jun 30 1998 10:00', '%b %d %Y')).toBe('1998-06-30');
    // Names that are no month (or a month cut short another way) are no day.
    expect(textDateShapes(['Foo 1 2000', 'Bar 2 2000'])).toEqual([]);
    expect(textDateShapes(['Sept 1 2000', 'Sept 2 2000'])).toEqual([]);
  });

  it('refuses codes, amounts and text that only start like a day', () => {
    expect(textDateShapes(['12345', '67890'])).toEqual([]);
    expect(textDateShapes(['6459,94', '122,62'])).toEqual([]);
    expect(textDateShapes(["2020-01-01'; DROP TABLE x; --", '2020-01-02 OR 1=1'])).toEqual([]);
    expect(textDateShapes(['13/13/2020', '14/14/2020'])).toEqual([]);
    expect(readDay('2021-02-29', '%Y-%m-%d')).toBeUndefined();
    expect(readDay('2020-02-29', '%Y-%m-%d')).toBe('2020-02-29');
  });
});

describe('a day kept in integer parts', () => {
  it('reads the part and whose date it is from the name, in several languages', () => {
    expect(datePartOfName('year')).toEqual({ part: 'year', of: '' });
    expect(datePartOfName('yearID')).toEqual({ part: 'year', of: '' });
    expect(datePartOfName('birthMonth')).toEqual({ part: 'month', of: 'birth' });
    expect(datePartOfName('Año')).toEqual({ part: 'year', of: '' });
    expect(datePartOfName('MES')).toEqual({ part: 'month', of: '' });
    expect(datePartOfName('day_of_week')).toBeUndefined();
    expect(datePartOfName('days')).toBeUndefined();
  });

  it('needs values that fit: a year 1800–2200, a month 1–12, a day 1–31', () => {
    expect(valuesFitPart('year', [2013, 1985])).toBe(true);
    expect(valuesFitPart('month', [1, 12])).toBe(true);
    expect(valuesFitPart('month', [0, 13])).toBe(false);
    expect(valuesFitPart('year', [1, 2, 3])).toBe(false);
  });

  it('groups the parts of one date, and leaves a day without its month alone', () => {
    const columns = [
      column('year', 'int'),
      column('month', 'int'),
      column('day', 'int'),
      column('dep_time', 'int'),
    ];
    const rows = [
      { year: 2013, month: 1, day: 1, dep_time: 517 },
      { year: 2013, month: 1, day: 31, dep_time: 2359 },
    ];
    expect(valueDates(columns, rows)).toEqual([
      { kind: 'parts', parts: { year: 'year', month: 'month', day: 'day' } },
    ]);
    expect(valueDates([column('year', 'int'), column('day', 'int')], rows)).toEqual([]);
  });
});

describe('moments kept as integers since 1970', () => {
  it('needs a name that says moment and values between 2000 and 2100, in seconds or milliseconds', () => {
    expect(epochUnit('created_at', [1_700_000_000, 1_700_086_400, 1_710_000_000])).toBe('s');
    expect(epochUnit('event_ts', [1_700_000_000_123, 1_700_086_400_000, 1_710_000_000_999])).toBe('ms');
    // An id or an amount in that range is not named as a moment.
    expect(epochUnit('order_id', [1_700_000_000, 1_700_000_001, 1_700_000_002])).toBeUndefined();
    expect(epochUnit('created_at', [1, 2, 3])).toBeUndefined();
  });

  it('reads a moment column apart from any date parts', () => {
    const columns = [column('created_at', 'bigint'), column('amount', 'int')];
    const rows = [1_700_000_000, 1_700_090_000, 1_700_200_000].map((t) => ({ created_at: t, amount: 5 }));
    expect(valueDates(columns, rows)).toEqual([{ kind: 'epoch', column: columns[0], unit: 's' }]);
  });
});

describe('the warehouse reads them on DuckDB', () => {
  it('parses text days, and gives NULL for no day or a placeholder year', async () => {
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    await db.run(
      "CREATE TABLE t AS SELECT * FROM (VALUES ('06/01/2020', 2013, 1, 31), ('31/12/2021 10:22', 2013, 2, 31), ('01/01/0202', 2016, NULL, NULL), ('n/a', NULL, 1, 1)) v(d, y, m, dd)",
    );
    const reader = await db.runAndReadAll(
      `SELECT CAST(${textDateSource('t', 'd', '%d/%m/%Y')} AS VARCHAR) AS text_day, CAST(${partsDateSource('t', { year: 'y', month: 'm', day: 'dd' })} AS VARCHAR) AS parts_day, CAST(${partsDateSource('t', { year: 'y' })} AS VARCHAR) AS year_day FROM t`,
    );
    expect(reader.getRowObjects()).toEqual([
      { text_day: '2020-01-06', parts_day: '2013-01-31', year_day: '2013-01-01' },
      { text_day: '2021-12-31', parts_day: null, year_day: '2013-01-01' },
      // A missing month is no day: the row stays undated, as MySQL reads it too.
      { text_day: null, parts_day: null, year_day: '2016-01-01' },
      { text_day: null, parts_day: null, year_day: null },
    ]);
    // Month names, and a year alone: 1900 is a census year, not a system's "no date".
    const named = await db.runAndReadAll(
      `SELECT CAST(${textDateSource('n', 'd', '%b %d %Y')} AS VARCHAR) AS day, CAST(${partsDateSource('n', { year: 'y' })} AS VARCHAR) AS year_day, CAST(${partsDateSource('n', { year: 'y', month: 'm', day: 'dd' })} AS VARCHAR) AS parts_day FROM (VALUES ('Jun 12 1998', 1900, 1, 1), ('Foo 1 2000', 1799, 1, 1)) n(d, y, m, dd)`,
    );
    expect(named.getRowObjects()).toEqual([
      { day: '1998-06-12', year_day: '1900-01-01', parts_day: null },
      { day: null, year_day: null, parts_day: null },
    ]);
    const moments = await db.runAndReadAll(
      `SELECT CAST(${epochDateSource('m', 's', 's')} AS VARCHAR) AS s, CAST(${epochDateSource('m', 'ms', 'ms')} AS VARCHAR) AS ms FROM (VALUES (1700000000, 1700000000123), (NULL, NULL)) m(s, ms)`,
    );
    expect(moments.getRowObjects()).toEqual([
      { s: '2023-11-14', ms: '2023-11-14' },
      { s: null, ms: null },
    ]);
  });
});

describe('names in other languages', () => {
  it('reads schema words of five languages as the English words the analyst reasons with', () => {
    expect(nameWords('FechaPedido')).toEqual(['date', 'order']);
    expect(nameWords('cantidad')).toEqual(['quantity']);
    expect(nameWords('precio_unidad')).toEqual(['price', 'unit']);
    expect(nameWords('VALOR_REEMBOLSADO')).toEqual(['value', 'refund']);
    expect(nameWords('Bestellung')).toEqual(['order']);
    expect(nameWords('prix_unitaire')).toEqual(['price', 'unit']);
    expect(nameWords('quantità')).toEqual(['quantity']);
    expect(nameWords('order_date')).toEqual(['order', 'date']);
  });
});
