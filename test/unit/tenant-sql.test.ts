/**
 * The check every tenant statement passes before DuckDB prepares it (docs/security.md#tenant-sql):
 * one SELECT over the project's tables, no table function or call reaching settings, logs or the
 * query itself, and no value built past its bound however the size is written.
 */
import { tenantSqlRefusal } from '../../domain/warehouse/tenant-sql';
import { formatWidths } from '../../shared/sql-size-bounds';

const refused = async (sql: string) => (await tenantSqlRefusal(sql))?.reason;

describe('tenant SQL', () => {
  it('lets ordinary analytics through', async () => {
    for (const sql of [
      'SELECT stat_date, SUM(revenue) AS value FROM ads_sales_kpi_daily GROUP BY 1 ORDER BY 1',
      'WITH d AS (SELECT * FROM dwd_orders_detail) SELECT COUNT(*) FROM d;',
      "SELECT lpad(CAST(id AS VARCHAR), 8, '0'), printf('%05.2f', amount) FROM ods_payment",
      "SELECT * FROM generate_series(DATE '2020-01-01', DATE '2020-12-31', INTERVAL 1 DAY) AS g(d)",
      "SELECT * FROM range(TIMESTAMP '2020-01-01', TIMESTAMP '2020-01-02', INTERVAL '1 hour')",
      'SELECT unnest(range(5)), range(1, 10, 2)',
      'SELECT * FROM json_each(\'{"a": 1}\')',
      'DESCRIBE ods_payment',
      "SELECT current_setting('threads'), CURRENT_SETTING('memory_limit')",
    ])
      expect({ sql, refused: await refused(sql) }).toEqual({ sql, refused: undefined });
  });

  it('refuses table functions that log, read files or settings, or run other SQL', async () => {
    for (const sql of [
      "SELECT * FROM enable_logging(level='trace', storage='file', storage_path='/nonexistent/x')",
      "SELECT * FROM read_text('/etc/passwd')",
      "SELECT * FROM main.query('SELECT 1')",
      "SELECT * FROM query_table('t')",
      'SELECT * FROM duckdb_settings()',
      "SELECT * FROM glob('/**')",
      "SELECT * FROM ods_payment p, LATERAL read_csv('/etc/passwd') r",
      'SELECT (SELECT COUNT(*) FROM duckdb_logs()) AS n',
    ])
      expect({ sql, refused: await refused(sql) }).toEqual({ sql, refused: 'not_allowed' });
  });

  it('refuses calls that read settings, variables or the query, or sleep', async () => {
    for (const sql of [
      "SELECT current_setting('allowed_directories')",
      "SELECT getvariable('x')",
      'SELECT current_query()',
      "SELECT write_log('x')",
      'SELECT sleep_ms(100000)',
      "SELECT CURRENT_SETTING('temp_directory')",
      'SELECT current_setting(name) FROM t',
    ])
      expect({ sql, refused: await refused(sql) }).toEqual({ sql, refused: 'not_allowed' });
  });

  it('bounds values built from small inputs, however the size is written', async () => {
    for (const sql of [
      'SELECT len(range(20000000))',
      'SELECT len(range(2 * 10000 * 1000))',
      'SELECT len(range(10 ** 8))',
      "SELECT len(range('20000000'::BIGINT))",
      'SELECT len(range(1e8))',
      'SELECT len(generate_series(0, 99999999, 1))',
      'SELECT len(range(0, 10, 0))',
      "SELECT repeat('x', 1000000000)",
      "SELECT lpad('x', 1000000000, 'y')",
      "SELECT rpad(name, n, 'y') FROM t",
      'SELECT list_resize([1], 99999999)',
      "SELECT printf('%0999999999d', 1)",
      "SELECT format('{:>999999999}', 'x')",
      'SELECT printf(fmt, 1) FROM t',
      'SELECT * FROM range(100000000000)',
      "SELECT * FROM generate_series(TIMESTAMP '2000-01-01', TIMESTAMP '2020-12-31', INTERVAL '1 second')",
      'SELECT * FROM range(n) FROM t',
    ])
      expect({ sql, refused: await refused(sql) }).toEqual({
        sql,
        refused: sql === 'SELECT * FROM range(n) FROM t' ? 'invalid_sql' : 'not_allowed',
      });
  });

  it('takes one SELECT: anything else is read-only refusal, a typo a syntax error', async () => {
    expect(await refused('SELECT 1; SELECT 2')).toBe('read_only');
    expect(await refused('DELETE FROM t')).toBe('read_only');
    expect(await refused("COPY (SELECT 1) TO '/tmp/x.csv'")).toBe('read_only');
    expect(await refused('PRAGMA version')).toBe('read_only');
    expect(await refused('SELEC 1')).toBe('invalid_sql');
    expect((await tenantSqlRefusal('SELECT len(range(20000000))'))?.message).toMatch(/at most 10,000/);
  });

  it('reads format widths and precisions', () => {
    expect(formatWidths('%05.2f and %-30s')).toEqual([5, 2, 30, 0]);
    expect(formatWidths('{:>99999} {:.3f} {:0>999}')).toEqual([99999, 3, 0, 999]);
  });
});
