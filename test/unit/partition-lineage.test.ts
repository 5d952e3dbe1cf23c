/**
 * Which modeled tables can be rebuilt a day at a time, decided from their SELECT as DuckDB parses
 * it (docs/refresh.md#only-affected-days). The names are arbitrary: the decision must come from the
 * statement's shape, never from a column called `stat_date`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDb } from '../../domain/warehouse/duckdb-module';
import { partitionLineage, type FunctionKinds } from '../../domain/warehouse/refresh/partition-lineage';
import { functionKinds } from '../../domain/warehouse/refresh/function-kinds';
import type { SyntaxNode } from '../../domain/warehouse/sql-syntax-tree';

let conn: DuckDBConnection;
let kinds: FunctionKinds;

beforeAll(async () => {
  conn = await (await openDuckDb(':memory:', { threads: '1' })).connect();
  kinds = await functionKinds(conn);
});

afterAll(() => conn.closeSync());

async function lineageOf(sql: string, candidates: string[]) {
  const [row] = (
    await conn.runAndReadAll(`SELECT json_serialize_sql('${sql.replace(/'/g, "''")}') AS t`)
  ).getRowObjectsJS();
  const tree = JSON.parse(String(row.t)) as { statements: { node: SyntaxNode }[] };
  return partitionLineage(tree.statements[0].node, candidates, kinds);
}

describe('partition lineage', () => {
  it('scopes a detail table whose day is computed from its base table alone, joins followed', async () => {
    const l = await lineageOf(
      `SELECT f."id", CAST(f."when" AS DATE) AS "jour", d."label"
       FROM w_ods."facts" AS f LEFT JOIN w_ods."dims" AS d ON f."dim" = d."id" AND f."part" = d."part"`,
      ['jour'],
    );
    expect(l).toMatchObject({
      scoped: true,
      column: 'jour',
      base: { schema: 'w_ods', table: 'facts', alias: 'f' },
      joins: [{ alias: 'd', table: { schema: 'w_ods', table: 'dims' } }],
    });
    if (l.scoped) expect(l.joins[0].on.map((o) => o.to)).toEqual(['id', 'part']);
  });

  it('scopes a line dated by the order it joins, and says whose day it is', async () => {
    const l = await lineageOf(
      `SELECT z."id", CAST(COALESCE(z."shipped", k."placed") AS DATE) AS "tag", z."qty"
       FROM w_ods."zeile" AS z LEFT JOIN w_ods."kopf" AS k ON z."kopf" = k."nr"
         LEFT JOIN w_ods."kunde" AS c ON k."kunde" = c."id"`,
      ['tag'],
    );
    expect(l).toMatchObject({ scoped: true, column: 'tag', base: { alias: 'z' }, dayJoins: ['k'] });
    const own = await lineageOf(
      `SELECT CAST(z."shipped" AS DATE) AS "tag" FROM w_ods."zeile" AS z LEFT JOIN w_ods."kopf" AS k ON z."kopf" = k."nr"`,
      ['tag'],
    );
    expect(own).toMatchObject({ scoped: true, dayJoins: [] });
  });

  it("reads DuckDB's own macros by their bodies: nullif computes row by row, geomean aggregates", async () => {
    expect(kinds.isScalar('nullif')).toBe(true);
    expect(kinds.isScalar('split_part')).toBe(true);
    expect(kinds.isScalar('geomean')).toBe(false);
    expect(kinds.isScalar('weighted_avg')).toBe(false);
    expect(kinds.isScalar('generate_subscripts')).toBe(false);
    expect(kinds.isScalar('sum')).toBe(false);
    const cleaned = await lineageOf(
      `SELECT nullif(trim(x), '') AS "code", CAST(nullif("t", '') AS DATE) AS "d" FROM w.a`,
      ['d'],
    );
    expect(cleaned).toMatchObject({ scoped: true, column: 'd' });
    const averaged = await lineageOf(`SELECT geomean(x) AS g, DATE '2025-01-01' AS "d" FROM w.a`, ['d']);
    expect(averaged).toMatchObject({ scoped: false, reason: 'it aggregates all its rows into one' });
  });

  it('scopes an aggregate grouped by its day, by position, by name or by the same expression', async () => {
    for (const group of ['1', '"d"', `date_trunc('month', "t")`]) {
      const l = await lineageOf(
        `SELECT date_trunc('month', "t") AS "d", SUM("x") AS s, COUNT(DISTINCT "y") AS n FROM w.x GROUP BY ${group}`,
        ['d'],
      );
      expect(l).toMatchObject({ scoped: true, column: 'd' });
    }
  });

  it('takes the first candidate that qualifies', async () => {
    const l = await lineageOf(`SELECT MAX("t") AS "latest", "t" AS "day", SUM(x) AS s FROM w.x GROUP BY 2`, [
      'latest',
      'day',
    ]);
    expect(l).toMatchObject({ scoped: true, column: 'day' });
  });

  it.each([
    ['a set operation', `SELECT "t" AS d FROM w.a UNION ALL SELECT "t" FROM w.b`, /set operation/],
    ['a LIMIT', `SELECT "t" AS d FROM w.a LIMIT 10`, /LIMIT/],
    ['a window', `SELECT "t" AS d, SUM(x) OVER (ORDER BY "t") AS run FROM w.a`, /window/],
    ['a subquery', `SELECT "t" AS d FROM w.a WHERE x > (SELECT AVG(x) FROM w.a)`, /subquery/],
    ['a CTE', `WITH c AS (SELECT * FROM w.a) SELECT "t" AS d FROM c`, /WITH/],
    ['an inner join', `SELECT a."t" AS d FROM w.a AS a JOIN w.b AS b ON a.k = b.k`, /INNER join/],
    [
      'a join not on equal columns',
      `SELECT a."t" AS d FROM w.a AS a LEFT JOIN w.b AS b ON a.k < b.k`,
      /not on equal/,
    ],
    [
      'a day from a table the SELECT does not join',
      `SELECT c."t" AS d FROM w.a AS a LEFT JOIN w.b AS b ON a.k = b.k`,
      /c\.t, not a column of a or of a table it joins/,
    ],
    [
      'an unqualified column beside a join',
      `SELECT "t" AS d FROM w.a AS a LEFT JOIN w.b AS b ON a.k = b.k`,
      /not a column of a/,
    ],
    ['an aggregate day', `SELECT MAX("t") AS d, COUNT(*) AS n FROM w.a GROUP BY "k"`, /max/],
    [
      'a day that is no group key',
      `SELECT CAST("t" AS DATE) AS d, SUM(x) AS s FROM w.a GROUP BY "t", "k"`,
      /group keys/,
    ],
    ['one group of all rows', `SELECT SUM(x) AS s, DATE '2025-01-01' AS d FROM w.a`, /all its rows into one/],
    [
      'a rollup over the day',
      `SELECT "t" AS d, "k", SUM(x) AS s FROM w.a GROUP BY ROLLUP ("t", "k")`,
      /group keys/,
    ],
    ['a constant day', `SELECT DATE '2025-01-01' AS d, x FROM w.a`, /constant/],
  ])('builds whole a table with %s, and says why', async (_what, sql, why) => {
    const l = await lineageOf(sql, ['d']);
    expect(l.scoped).toBe(false);
    if (!l.scoped) expect(l.reason).toMatch(why);
  });

  it('builds whole a table with no DATE column', async () => {
    expect(await lineageOf(`SELECT "k", SUM(x) AS s FROM w.a GROUP BY 1`, [])).toEqual({
      scoped: false,
      reason: 'it has no DATE column',
    });
  });
});
