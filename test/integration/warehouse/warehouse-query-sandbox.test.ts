/**
 * The one warehouse query path (docs/architecture.md#one-warehouse-query-path): the embedded
 * engine's `query` is the sandbox the gateway's /query, the stages and the advisor all go through.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openDuckDb } from '../../../domain/warehouse/duckdb-module';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { WarehouseQueryError } from '../../../domain/warehouse/warehouse-engine';
import { MAX_ANSWER_BYTES } from '../../../domain/warehouse/answer-size';
import { layerDatabaseName, layerDir, sourceSchemaFile } from '../../../domain/warehouse/warehouse-layout';
import { newTestDataDir } from '../../harness/platform-gateway';
import { queryWarehouse } from '../../../gateway/projects/warehouse-query';

const PROJECT = 'proj-20261123-sandbox1';
const OTHER = 'proj-20261123-sandbox2';

describe('warehouse query sandbox (DuckDB engine)', () => {
  let root: string;
  let engine: DuckDbWarehouse;

  beforeAll(async () => {
    root = newTestDataDir();
    engine = new DuckDbWarehouse(root);
    for (const project of [PROJECT, OTHER])
      await engine.buildLayer(project, 'ods', [
        { name: 'numbers', select: 'SELECT range AS n FROM range(100)', partition_by: [] },
      ]);
    await engine.buildLayer(PROJECT, 'dwd', [
      { name: 'tens', select: 'SELECT range * 10 AS t FROM range(10)', partition_by: [] },
    ]);
  });

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'answered',
      (err: unknown) => (err instanceof WarehouseQueryError ? err.reason : `other: ${String(err)}`),
    );

  it('answers a SELECT with capped rows, saying when more existed, in the query’s own order', async () => {
    const out = await engine.query(PROJECT, 'SELECT n FROM numbers ORDER BY n DESC;', 3, 'ods');
    expect(out).toEqual({ columns: ['n'], rows: [{ n: '99' }, { n: '98' }, { n: '97' }], truncated: true });
    expect((await engine.query(PROJECT, 'SELECT COUNT(*) AS c FROM numbers', 3, 'ods')).truncated).toBe(
      false,
    );
  });

  it('reads a query of huge rows no further than an answer may weigh', async () => {
    // 2,000 rows of 100 kB each: 200 MB of JSON if read whole, where an answer weighs at most 1.5 MB.
    const heapBefore = process.memoryUsage().heapUsed;
    const out = await engine.query(
      PROJECT,
      `SELECT n, ${Array(10).fill("repeat('x', 10000)").join(' || ')} AS big FROM numbers, range(20)`,
      10_000,
      'ods',
    );
    expect(out.truncated).toBe(true);
    expect(out.rows).toHaveLength(14);
    expect(Buffer.byteLength(JSON.stringify(out.rows))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    // Turned into JSON a row at a time, not a chunk of 2,048 rows at once (400 MB of strings).
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses anything but one SELECT, and unparsable SQL, before running it', async () => {
    expect(await refusal(engine.query(PROJECT, 'DELETE FROM numbers', 10, 'ods'))).toBe('read_only');
    for (const sql of ["ATTACH 'x.duckdb' AS x", 'COPY numbers TO stolen.csv'])
      expect(await refusal(engine.query(PROJECT, sql, 10, 'ods'))).toBe('read_only');
    expect(await refusal(engine.query(PROJECT, 'SELEC 1', 10, 'ods'))).toBe('invalid_sql');
    expect(await refusal(engine.query(PROJECT, 'SELECT 1; DELETE FROM numbers', 10, 'ods'))).not.toBe(
      'answered',
    );
  });

  it("reaches only the project's own files: not another project's, not the machine's", async () => {
    const otherFile = path.join(layerDir(root, OTHER, 'ods'));
    const parquet = fs
      .readdirSync(otherFile, { recursive: true })
      .map(String)
      .find((f) => f.endsWith('.parquet'))!;
    // Read by its path (no table function, which the check refuses first): the sandbox stops it.
    const theirs = `SELECT COUNT(*) FROM '${path.join(otherFile, parquet)}'`;
    expect(await refusal(engine.query(PROJECT, theirs, 10, 'ods'))).not.toBe('answered');
    expect(await refusal(engine.query(PROJECT, "SELECT * FROM '/etc/passwd'", 10, 'ods'))).not.toBe(
      'answered',
    );
    expect(await refusal(engine.query(PROJECT, "SELECT * FROM read_csv('/etc/passwd')", 10, 'ods'))).not.toBe(
      'answered',
    );
    // The same query is allowed in the project it belongs to.
    expect((await engine.query(OTHER, theirs, 10, 'ods')).rows).toEqual([{ 'count_star()': '100' }]);
  });

  it('runs many statements in one session, each checked, capped and confined like a query', async () => {
    const slow =
      'SELECT COUNT(*) FROM range(10000000) a, range(10000000) b WHERE (a.range + b.range) % 7 = 3';
    const seen = await engine.withQuerySession(PROJECT, async (query) => ({
      ods: (await query('SELECT COUNT(*) AS c FROM numbers', 1, 'ods')).rows,
      dwd: (await query('SELECT COUNT(*) AS c FROM tens;', 1, 'dwd')).rows,
      qualified: (await query(`SELECT COUNT(*) AS c FROM ${layerDatabaseName(PROJECT, 'ods')}.numbers`, 1))
        .rows,
      // Without a default layer unqualified names resolve nowhere, as in `query`.
      unqualified: await refusal(query('SELECT COUNT(*) AS c FROM numbers', 1)),
      capped: await query('SELECT n FROM numbers ORDER BY n DESC', 2, 'ods'),
      refused: [
        await refusal(query('DELETE FROM numbers', 1, 'ods')),
        await refusal(query('SET threads = 1', 1, 'ods')),
        await refusal(query('SELECT 1', 1, 'ads')),
        await refusal(query(slow, 1, 'ods', 300)),
      ],
      machine: await refusal(query("SELECT * FROM read_csv('/etc/passwd')", 1, 'ods')),
      // The session goes on after refusals and an interrupted statement.
      after: (await query('SELECT COUNT(*) AS c FROM numbers', 1, 'ods')).rows,
    }));
    expect(seen).toEqual({
      ods: [{ c: '100' }],
      dwd: [{ c: '10' }],
      qualified: [{ c: '100' }],
      unqualified: 'invalid_sql',
      capped: { columns: ['n'], rows: [{ n: '99' }, { n: '98' }], truncated: true },
      refused: ['read_only', 'read_only', 'layer_not_built', 'timeout'],
      machine: expect.not.stringMatching(/^answered$/),
      after: [{ c: '100' }],
    });
  });

  it('answers statements sent at once in one session each with its own rows, on its own layer', async () => {
    const answers = await engine.withQuerySession(PROJECT, (query) =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 2
            ? query(`SELECT SUM(t) + ${i} AS v FROM tens`, 1, 'dwd')
            : query(`SELECT SUM(n) + ${i} AS v FROM numbers`, 1, 'ods'),
        ),
      ),
    );
    expect(answers.map((a) => a.rows[0].v)).toEqual(
      Array.from({ length: 12 }, (_, i) => String((i % 2 ? 450 : 4950) + i)),
    );
  });

  it('stops a query that runs past its time limit', async () => {
    const slow =
      'SELECT COUNT(*) FROM range(10000000) a, range(10000000) b WHERE (a.range + b.range) % 7 = 3';
    expect(await refusal(engine.query(PROJECT, slow, 1, 'ods', 300))).toBe('timeout');
  });

  it('says when the layer asked for is not built', async () => {
    expect(await refusal(engine.query(PROJECT, 'SELECT 1', 1, 'ads'))).toBe('layer_not_built');
    await expect(engine.openReadSession(PROJECT, 'dws')).rejects.toThrow(/not built yet/);
  });

  it('says which layer holds a table the query named on another layer (through /query)', async () => {
    await engine.buildLayer(PROJECT, 'dws', [
      { name: 'dws_days', select: 'SELECT range AS d FROM range(3)', partition_by: [] },
    ]);
    const asked = queryWarehouse(engine, PROJECT, {
      sql: 'SELECT * FROM dws_days',
      layer: 'ods',
      max_rows: 10,
      timeout_ms: 5000,
    });
    await expect(asked).rejects.toMatchObject({ status: 400 });
    await expect(asked).rejects.toThrow(/ran on layer ods; dws_days is in layer dws: send "layer": "dws"/);
    // A table no layer's name explains gets DuckDB's answer alone.
    await expect(
      queryWarehouse(engine, PROJECT, {
        sql: 'SELECT * FROM nowhere',
        layer: 'ods',
        max_rows: 10,
        timeout_ms: 5000,
      }),
    ).rejects.toThrow(/^(?![\s\S]*send "layer")/);
    expect(
      (
        await queryWarehouse(engine, PROJECT, {
          sql: 'SELECT * FROM dws_days',
          layer: 'dws',
          max_rows: 10,
          timeout_ms: 5000,
        })
      ).row_count,
    ).toBe(3);
  });

  it("gives the advisor's read session the same confinement", async () => {
    const session = await engine.openReadSession(PROJECT, 'ods');
    try {
      expect((await session.query('SELECT COUNT(*) AS c FROM numbers')).rows).toEqual([{ c: '100' }]);
      expect(
        (await session.query('SELECT COUNT(*) AS c FROM numbers', { singleThreaded: true })).rows,
      ).toEqual([{ c: '100' }]);
      expect(await refusal(session.query("SELECT * FROM read_csv('/etc/passwd')"))).not.toBe('answered');
      expect(await refusal(session.query('SET threads = 1'))).toBe('read_only');
      expect(await refusal(session.query('CREATE TABLE x AS SELECT 1'))).toBe('read_only');
      expect(await refusal(session.query('SELEC 1'))).toBe('invalid_sql');
    } finally {
      session.close();
    }
  });

  it('runs a small project on one thread, a statement asking for one included, and others on every core', async () => {
    // The row counts data integration saves: one table of 100 rows, well within a row group.
    const schema = sourceSchemaFile(root, PROJECT);
    fs.writeFileSync(schema, JSON.stringify({ tables: [{ name: 'numbers', row_count: 100 }] }));
    const threadsSql = "SELECT current_setting('threads') AS t";
    try {
      const session = await engine.openReadSession(PROJECT, 'ods');
      const threads = async (singleThreaded = false) =>
        (await session.query(threadsSql, { singleThreaded })).rows[0].t;
      try {
        expect(await threads()).toBe('1');
        expect(await threads(true)).toBe('1');
        // A statement asking for one thread does not restore the others after it.
        expect(await threads()).toBe('1');
      } finally {
        session.close();
      }
      expect((await engine.query(PROJECT, threadsSql, 1, 'ods')).rows).toEqual([{ t: '1' }]);
      // Without saved counts (or with a table past a row group), DuckDB's default.
      const fresh = await openDuckDb(':memory:');
      const conn = await fresh.connect();
      const machine = String((await conn.runAndReadAll(threadsSql)).getRowObjectsJS()[0].t);
      conn.closeSync();
      fresh.closeSync();
      expect((await engine.query(OTHER, threadsSql, 1, 'ods')).rows).toEqual([{ t: machine }]);
      fs.writeFileSync(schema, JSON.stringify({ tables: [{ name: 'numbers', row_count: 200_000 }] }));
      expect((await engine.query(PROJECT, threadsSql, 1, 'ods')).rows).toEqual([{ t: machine }]);
    } finally {
      fs.rmSync(schema);
    }
  });

  it("caps the read session's rows and time like a query", async () => {
    const session = await engine.openReadSession(PROJECT, 'ods', { maxRows: 3, timeoutMs: 300 });
    try {
      const out = await session.query('SELECT n FROM numbers ORDER BY n DESC');
      expect(out).toEqual({ columns: ['n'], rows: [{ n: '99' }, { n: '98' }, { n: '97' }], truncated: true });
      const slow =
        'SELECT COUNT(*) FROM range(10000000) a, range(10000000) b WHERE (a.range + b.range) % 7 = 3';
      expect(await refusal(session.query(slow))).toBe('timeout');
      // The session survives a refusal and an interrupted statement.
      expect((await session.query('SELECT COUNT(*) AS c FROM numbers')).rows).toEqual([{ c: '100' }]);
    } finally {
      session.close();
    }
  });

  it('answers a query stuck folding constants at its deadline, and says when its work really ends', async () => {
    // DuckDB folds `range(…)` while preparing and notices no interrupt until done (seconds here).
    const err = await engine
      // Each list within its bound, ten million numbers in all: the check cannot see a product.
      .query(
        PROJECT,
        'SELECT len(flatten(list_transform(range(10000), x -> range(1000)))) AS n',
        1,
        'ods',
        100,
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WarehouseQueryError);
    expect((err as WarehouseQueryError).reason).toBe('timeout');
    const ended = { yet: false };
    const stillRunning = (err as WarehouseQueryError).stillRunning!.then(() => (ended.yet = true));
    expect(ended.yet).toBe(false);
    await stillRunning;
    // Its session is closed and its spill directory gone once the work ended.
    expect(fs.readdirSync(path.join(root, '.spill'))).toEqual([]);
  });
});
