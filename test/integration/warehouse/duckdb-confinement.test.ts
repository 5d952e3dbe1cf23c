/**
 * The confinement of every DuckDB instance of a project's work, data integration's included
 * (docs/security.md#the-warehouse-sandbox): inside the named directories it reads and writes;
 * outside, nothing, through any connection opened later too, and no statement can lift it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openDuckDb } from '../../../domain/warehouse/duckdb-module';
import { confineInstance } from '../../../domain/warehouse/duckdb-confinement';
import { newTestDataDir } from '../../harness/platform-gateway';

describe('DuckDB confinement', () => {
  it('keeps every connection of an instance inside its directories, for good', async () => {
    const root = newTestDataDir();
    const project = path.join(root, 'proj-a', 'ods');
    const pipes = path.join(root, 'pipes');
    const elsewhere = path.join(root, 'proj-b');
    for (const dir of [project, pipes, elsewhere]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(pipes, 'lane-0.csv'), 'a\n1\n2\n');
    fs.writeFileSync(path.join(elsewhere, 'secret.csv'), 'token\nhunter2\n');
    const instance = await openDuckDb(':memory:');
    try {
      await confineInstance(instance, [project, pipes]);
      const conn = await instance.connect();
      const run = (sql: string) =>
        conn.runAndReadAll(sql).then(
          (r) => r.getRowObjectsJson(),
          (err: Error) => `refused: ${err.message.split('\n')[0]}`,
        );
      expect(
        await run(`COPY (SELECT * FROM read_csv('${pipes}/lane-0.csv')) TO '${project}/t.parquet'`),
      ).toEqual([{ Count: '2' }]);
      expect(await run(`SELECT COUNT(*) AS n FROM read_parquet('${project}/t.parquet')`)).toEqual([
        { n: '2' },
      ]);
      for (const sql of [
        `SELECT * FROM read_csv('${elsewhere}/secret.csv')`,
        `SELECT * FROM read_csv('${project}/../../proj-b/secret.csv')`,
        `COPY (SELECT 1) TO '${elsewhere}/planted.csv'`,
        `ATTACH '${elsewhere}/x.duckdb' AS x`,
        "SELECT * FROM read_text('/etc/passwd')",
        'SET enable_external_access = true',
        `SET allowed_directories = ['/']`,
        'INSTALL httpfs',
      ])
        expect({ sql, answer: await run(sql) }).toEqual({ sql, answer: expect.stringMatching(/^refused: /) });
      expect(fs.existsSync(path.join(elsewhere, 'planted.csv'))).toBe(false);
      conn.closeSync();
    } finally {
      instance.closeSync();
    }
  });
});
