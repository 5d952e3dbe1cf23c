/**
 * Data modeling with a failing statement: offline, the stage fails naming the statement; with
 * Claude (the real SDK against a local Messages API fake), the SELECT is repaired and the layer built.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { dataDirDeps } from '../../../workers/platform-activities';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import {
  createWarehouseActivities,
  type ModelScripts,
} from '../../../activities/analysis/warehouse-activities';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { ingestOds } from '../../../domain/warehouse/ods-ingestion';
import type { Prd } from '../../../shared/prd-schema';
import type { ModelingSummary } from '../../../shared/warehouse-model';
import { startMessagesFake } from '../../fakes/anthropic-messages-fake';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource, sakilaConnection } from '../../harness/sakila';

const projectId = 'proj-20261122-repair01';

describe('data modeling repairs', () => {
  let deps: Awaited<ReturnType<typeof dataDirDeps>>;
  let broken: Prd;
  let tableName: string;

  beforeAll(async () => {
    deps = await dataDirDeps(newTestDataDir());
    const mysql = await sakilaConnection();
    try {
      const snapshot = await exploreSource(mysql, 'sakila', { sampleRows: 0 });
      const prd = buildOfflinePrd(snapshot);
      await ingestOds({
        projectId,
        warehouseRoot: deps.warehouseRoot,
        source: harnessSource(),
        snapshot,
        prd,
        done: [],
        onTable: () => {},
      });
      broken = structuredClone(prd);
      const table = broken.layers.dws.find((t) => t.fields.some((f) => f.name === 'total_amount'))!;
      tableName = table.name;
      table.fields.find((f) => f.name === 'total_amount')!.source = 'SUM(amout)'; // a typo the engine rejects
    } finally {
      await mysql.end();
    }
  });

  const build = (activities: ReturnType<typeof createWarehouseActivities>) =>
    new MockActivityEnvironment().run(activities.buildWarehouseModel, {
      project_id: projectId,
      prd: broken,
    }) as Promise<ModelingSummary>;

  it('offline: fails the stage with the failing statement and the engine reason', async () => {
    const err = await build(createWarehouseActivities(deps)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    const failure = err as ApplicationFailure;
    expect(failure.type).toBe('ModelBuildFailed');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.details?.[0]).toMatchObject({
      layer: 'dws',
      table: tableName,
      statement: expect.stringContaining('SUM("amout")'),
      reason: expect.stringMatching(/amout/),
    });
  });

  it('with Claude: repairs the SELECT, builds the layer and records the model usage', async () => {
    const fake = await startMessagesFake([
      (req) => {
        const prompt = String(req.body.messages[0].content);
        // Answer with the fix a model would give: the statement from the prompt, typo corrected.
        const failing = /Failing SELECT:\n([\s\S]*?)\n\nEngine error/.exec(prompt)![1];
        return {
          content: [
            { type: 'text', text: '```sql\n' + failing.replace('SUM("amout")', 'SUM("amount")') + ';\n```' },
          ],
          stop_reason: 'end_turn',
          usage: { input_tokens: 900, output_tokens: 120 },
        };
      },
    ]);
    try {
      const activities = createWarehouseActivities({
        ...deps,
        llm: {
          provider: 'anthropic',
          apiKey: 'sk-test',
          baseURL: fake.baseURL,
          models: { large: 'l', medium: 'claude-test-medium', small: 's' },
        },
      });
      const summary = await build(activities);
      expect(summary.repairs).toEqual([
        { layer: 'dws', table: tableName, reason: expect.stringMatching(/amout/) },
      ]);
      expect(summary.usage).toEqual([
        expect.objectContaining({
          agent_name: 'data_modeler',
          model: 'claude-test-medium',
          input_tokens: 900,
          output_tokens: 120,
        }),
      ]);
      expect(summary.layers.map((l) => l.layer)).toEqual(['dwd', 'dws', 'ads']);
      expect(fake.requests).toHaveLength(1);
      expect(JSON.stringify(fake.requests[0].body.messages)).toContain('dwd_payment_detail');
      const scripts = (await deps.store.getArtifact<ModelScripts>(projectId, 'model_scripts'))!;
      const dws = scripts.layers.find((l) => l.layer === 'dws')!;
      expect(dws.script).toContain('SUM("amount")');
      expect(dws.script).not.toContain('SUM("amout")');
      // The repaired table holds what the correct script produces.
      const rows = await deps.engine.query(
        projectId,
        `SELECT CAST(SUM(total_amount) AS VARCHAR) AS s FROM ${tableName}`,
        1,
        'dws',
      );
      expect(rows.rows[0]).toEqual({ s: '67406.56' });
    } finally {
      await fake.close();
    }
  });
});
