/**
 * The production-pipeline templates are runnable: generated for Sakila, they typecheck on their
 * own, and their workflow (time skipping) loads the source into a fresh warehouse whose ADS
 * matches the source; a second run extracts nothing new and changes nothing.
 */
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DuckDBInstance } from '@duckdb/node-api';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import {
  generatePipelineTemplates,
  type PipelineTemplates,
} from '../../../domain/pipeline/pipeline-templates';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { layerSelects, MODELED_LAYERS } from '../../../domain/warehouse/model-sql';
import { repoRoot } from '../../../shared/paths';
import { harness } from '../../harness/harness-state';
import { newTestDataDir } from '../../harness/platform-gateway';
import { sakilaConnection } from '../../harness/sakila';
import { timeSkippingEnv } from '../../harness/temporal-envs';

const projectId = 'proj-20261122-pipe0001';

describe('production pipeline templates', () => {
  let templates: PipelineTemplates;
  let dir: string;
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    const mysql = await sakilaConnection();
    const snapshot = await exploreSource(mysql, 'sakila', { sampleRows: 0 });
    await mysql.end();
    const prd = buildOfflinePrd(snapshot);
    templates = await generatePipelineTemplates({
      projectId,
      prd,
      source: snapshot,
      layers: MODELED_LAYERS.map((layer) => ({
        layer,
        tables: layerSelects(prd, layer, projectId, snapshot),
      })),
    });
    // Inside the repo, so the generated code resolves the same npm packages a user would install.
    dir = fs.mkdtempSync(path.join(repoRoot, '.data', 'pipeline-template-'));
    for (const f of templates.files) {
      fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, f.path), f.content);
    }
    env = await timeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads by change time where the source has one', () => {
    expect(templates.incremental).toEqual(
      expect.arrayContaining([{ table: 'rental', watermark: 'last_update' }]),
    );
    expect(templates.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'workflow.ts',
        'activities.ts',
        'worker.ts',
        'schedule.ts',
        'sql/model/ads.sql',
        'sql/extract/payment.sql',
      ]),
    );
  });

  it('typechecks as a project of its own', async () => {
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    const files = templates.files.filter((f) => f.path.endsWith('.ts')).map((f) => path.join(dir, f.path));
    await promisify(execFile)(tsc, [
      '--noEmit',
      '--strict',
      '--esModuleInterop',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'commonjs',
      ...files,
    ]);
  });

  it('runs: the workflow loads the warehouse, and a second run finds nothing new', async () => {
    const warehouseDir = newTestDataDir();
    const { host, port, user, password } = harness().mariadb;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const generated = require(
      path.join(dir, 'activities.ts'),
    ) as typeof import('../../../domain/pipeline/template/activities');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'pipeline-template-test',
      workflowsPath: path.join(dir, 'workflow.ts'),
      activities: generated.createActivities({
        warehouseDir,
        sourceUrl: `mysql://${user}@${host}:${port}/sakila`,
        sourcePassword: password,
        templateDir: dir,
      }),
    });
    const run = () =>
      env.client.workflow.execute('incrementalLoad', {
        taskQueue: 'pipeline-template-test',
        workflowId: `pipeline-${Date.now()}`,
      }) as Promise<{ rows_extracted: number; tables: { table: string; rows: number }[] }>;
    const [first, second] = await worker.runUntil(async () => [await run(), await run()]);
    expect(first.rows_extracted).toBe(47_268);
    // Tables with a change-time column extract nothing the second time; the others reload whole.
    expect(second.tables.find((t) => t.table === 'rental')!.rows).toBe(0);

    const instance = await DuckDBInstance.create(
      path.join(warehouseDir, projectId, `plat_${projectId.replace(/-/g, '_')}_ads.duckdb`),
      { access_mode: 'READ_ONLY' },
    );
    const conn = await instance.connect();
    const sums = await conn.runAndReadAll(
      'SELECT CAST(SUM(total_amount) AS VARCHAR) AS total, SUM(payment_count) AS n FROM ads_payment_kpi_daily',
    );
    conn.closeSync();
    instance.closeSync();
    expect(sums.getRowObjectsJson()[0]).toEqual({ total: '67406.56', n: '16044' });
  });
});
