/**
 * analysisProject with stand-in activities, for workflow tests of the sequence itself
 * (analysis-project-stages.test.ts, add-a-stage.test.ts): each stand-in answers in the shape of the
 * real activity and notes that it ran; the PRD is the real offline analyst's, of a two-table shop.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { ProjectHost } from '../../activities/fleet/host-activities';
import type { CopyOdsPartRequest, FinishOdsRequest } from '../../activities/analysis/ods-part-activities';
import type { OdsPartCopy } from '../../domain/warehouse/ods-assembly';
import type { UsageRecord } from '../../shared/cost-ledger';
import type { Prd } from '../../shared/prd-schema';
import type { AnalysisProjectInput, ProjectEvent, ProjectView } from '../../shared/project-model';
import type { SourceSnapshot } from '../../shared/source-schema';
import { analysisProject } from '../../workflows/analysis/analysis-project';
import { approveSignal, statusQuery } from '../../workflows/analysis/analysis-project-messages';
import { workersOnEveryQueue } from './queue-workers';

/** The host the stand-in ingestion worker claims projects for. */
export const HOST = 'host-a';

/** A shop with orders over customers: enough for the offline analyst to write a full PRD. */
export const SNAPSHOT: SourceSnapshot = {
  database: 'shop',
  server_version: '10.11',
  views: [],
  tables: [
    {
      name: 'customers',
      row_count: 3,
      primary_key: ['customer_id'],
      foreign_keys: [],
      columns: [
        { name: 'customer_id', type: 'int', data_type: 'int', nullable: false, key: 'PRI' },
        { name: 'name', type: 'varchar(80)', data_type: 'varchar', nullable: false, key: '' },
        { name: 'country', type: 'varchar(40)', data_type: 'varchar', nullable: false, key: '' },
      ],
      sample_rows: [
        { customer_id: '1', name: 'Ana', country: 'PT' },
        { customer_id: '2', name: 'Ben', country: 'DE' },
      ],
    },
    {
      name: 'orders',
      row_count: 5,
      primary_key: ['order_id'],
      foreign_keys: [
        { columns: ['customer_id'], references_table: 'customers', references_columns: ['customer_id'] },
      ],
      columns: [
        { name: 'order_id', type: 'int', data_type: 'int', nullable: false, key: 'PRI' },
        { name: 'customer_id', type: 'int', data_type: 'int', nullable: false, key: 'MUL' },
        { name: 'order_date', type: 'date', data_type: 'date', nullable: false, key: '' },
        { name: 'amount', type: 'decimal(10,2)', data_type: 'decimal', nullable: false, key: '' },
      ],
      sample_rows: [
        { order_id: '1', customer_id: '1', order_date: '2026-01-02', amount: '12.50' },
        { order_id: '2', customer_id: '2', order_date: '2026-01-03', amount: '7.00' },
      ],
    },
  ],
};

export const USAGE: UsageRecord = {
  agent_name: 'product_manager',
  phase: 'prd',
  model: 'claude-test',
  tier: 'large',
  input_tokens: 1000,
  output_tokens: 500,
  call_count: 1,
};

/** Stand-in activities: each answers in the shape of the real one and notes that it ran. */
export function standIns(prd: Prd, overrides: Record<string, (...args: never[]) => Promise<unknown>> = {}) {
  const ran: string[] = [];
  const saved: { view: ProjectView; events: ProjectEvent[] }[] = [];
  const note =
    <T>(name: string, answer: T) =>
    async () => {
      ran.push(name);
      return answer;
    };
  const activities = {
    generatePrd: note('generatePrd', { prd, usage: [USAGE] }),
    planOdsCopy: note('planOdsCopy', {
      parts: [
        { id: 'p1', kind: 'tables', tables: ['orders'], estimated_rows: 5 },
        { id: 'p2', kind: 'tables', tables: ['customers'], estimated_rows: 3 },
      ],
      estimated_rows: 8,
      part_rows: 5,
    }),
    copyOdsPart: async (req: CopyOdsPartRequest): Promise<OdsPartCopy> => {
      ran.push('copyOdsPart');
      return { part: req.part, tables: [] };
    },
    finishOds: async (req: FinishOdsRequest) => {
      ran.push('finishOds');
      return {
        database: 'plat_x_ods',
        database_file: '/x/ods.duckdb',
        tables: [{ table: 'orders', source_rows: 5, ods_rows: 5 }],
        rows_copied: 8,
        warnings: [],
        parts: req.copies.length,
      };
    },
    buildWarehouseModel: note('buildWarehouseModel', {
      layers: [{ layer: 'dwd', database: 'plat_x_dwd', tables: [] }],
      repairs: [],
      usage: [{ ...USAGE, agent_name: 'data_modeler', phase: 'data_modeling', tier: 'medium' }],
    }),
    governWarehouse: note('governWarehouse', {
      rules_total: 4,
      rules_passed: 4,
      rules_failed: 0,
      rules_errored: 0,
      blocking_failed: [],
      catalog_tables: 6,
    }),
    validateMetricSql: note('validateMetricSql', { metrics_total: 2, valid: ['a', 'b'], invalid: [] }),
    buildDashboards: note('buildDashboards', { url: 'http://x/ui/dash', dashboards: 1, charts: 2 }),
    profileData: note('profileData', { overall_score: 90, insights: 3 }),
    generatePipeline: note('generatePipeline', { files: ['dag.py'] }),
    recordProgress: async (view: ProjectView, events: ProjectEvent[]) => {
      saved.push({ view: structuredClone(view), events });
    },
    claimProjectHost: async (): Promise<ProjectHost> => ({ host_id: HOST, lost_after_ms: 60_000 }),
    hostAlive: async () => true,
    ...overrides,
  };
  return { activities, ran, saved };
}

let seq = 0;

/** A new project's input: a source the stand-ins never read. */
export const standInInput = (): AnalysisProjectInput => ({
  project_id: `proj-20261123-s${++seq}${Date.now().toString(36)}`,
  owner_id: 'user-1',
  created_at: new Date().toISOString(),
  description: 'online shop orders',
  reuse_ods: false,
  source: { jdbc_url: 'jdbc:mysql://db:3306/shop', username: 'u', password_ref: 'local:x' },
});

/**
 * Runs one project to its end on workers with `activities` (and the workflow code of
 * `workflowBundle`, else today's), approving when asked.
 */
export async function runStandInProject(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  activities: object,
  opts: {
    hosts?: string[];
    given?: Partial<AnalysisProjectInput>;
    workflowBundle?: WorkflowBundleWithSourceMap;
  } = {},
): Promise<{ id: string; view?: ProjectView; error?: unknown }> {
  const worker = await workersOnEveryQueue(env, taskQueue, activities, {
    hosts: opts.hosts ?? [HOST],
    workflowBundle: opts.workflowBundle,
  });
  const project = { ...standInInput(), ...opts.given };
  return worker.runUntil(async () => {
    const handle = await env.client.workflow.start(analysisProject, {
      taskQueue,
      workflowId: project.project_id,
      args: [project],
    });
    for (let i = 0; i < 200; i++) {
      const view = await handle.query(statusQuery);
      if (view.status === 'waiting_approval') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await handle.signal(approveSignal);
    try {
      return { id: project.project_id, view: await handle.result() };
    } catch (error) {
      return { id: project.project_id, error, view: await handle.query(statusQuery) };
    }
  });
}
