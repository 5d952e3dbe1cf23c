/**
 * A tenant whose source database names its tables and columns like paths and SQL, through the
 * public API of a running stack (real gateway, worker, dev server, MariaDB): the project completes,
 * its copy holds the source's rows, and nothing is written outside its own directory
 * (docs/security.md#names-are-never-paths).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { signUp } from '../harness/api-caller';
import { ALL_TABLES, FACT, LINES, connectHostile, createHostileSource } from '../harness/hostile-source';
import { platformStackPerSuite } from '../harness/platform-stack';
import { harnessProjectRequest } from '../harness/sakila';

const TASK_QUEUE = 'security-hostile-source';
const DB = 'hostile_api_source';

describe('a source whose names are paths and SQL, through the API', () => {
  const platform = platformStackPerSuite(TASK_QUEUE);
  const call = platform.call;
  let token: string;

  beforeAll(async () => {
    await createHostileSource(DB);
    token = await signUp(call, 'odd-names', 'correct horse');
  });

  async function until(id: string, status: string) {
    for (let i = 0; i < 900; i++) {
      const res = await call('GET', `/v1/projects/${id}`, undefined, token);
      if (res.body.status === status) return res.body;
      if (['failed', 'terminated', 'cancelled'].includes(res.body.status as string))
        throw new Error(
          `project ${id} ended ${String(res.body.status)}: ${JSON.stringify(res.body.phase_details)}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`project ${id} never became ${status}`);
  }

  it('completes, copies every row, and writes nothing outside its directory', async () => {
    const created = await call('POST', '/v1/projects', harnessProjectRequest(DB), token);
    expect(created.status).toBe(201);
    const id = created.body.project_id as string;
    const waiting = await until(id, 'waiting_approval');
    const prd = waiting.prd as { layers: { ods: { name: string; source_tables: string[] }[] } };
    expect(prd.layers.ods.map((t) => t.source_tables[0]).sort()).toEqual([...ALL_TABLES].sort());
    expect((await call('POST', `/v1/projects/${id}/hitl/approve`, undefined, token)).status).toBe(200);
    await until(id, 'completed');

    // The fact's rows are in its ODS copy, queried by the name the PRD gave it.
    const fact = prd.layers.ods.find((t) => t.source_tables[0] === FACT)!;
    const counted = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: `SELECT COUNT(*) AS n FROM "${fact.name}"`, layer: 'ods' },
      token,
    );
    expect(counted.body).toMatchObject({ rows: [{ n: String(LINES) }] });

    // Inside the warehouse, only this project's directory (and the sessions' emptied spill root).
    const { dataDir } = platform.current;
    const warehouse = path.join(dataDir, 'warehouse');
    expect(fs.readdirSync(warehouse).sort()).toEqual(['.spill', id].sort());
    expect(fs.readdirSync(path.join(warehouse, '.spill'))).toEqual([]);
    for (const escaped of ['/tmp/plat-escape', '/tmp/plat-escape.parquet', path.join(dataDir, 'escape')])
      expect(fs.existsSync(escaped)).toBe(false);
    // The table named like a statement's victim is still there at the source.
    const db = await connectHostile(DB);
    try {
      const [rows] = await db.query('SELECT COUNT(*) AS n FROM `y`');
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await db.end();
    }
  });
});
