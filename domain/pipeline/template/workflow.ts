/**
 * Incremental load of one plat warehouse (generated template): extract what changed in the source
 * since the last run, rebuild the modeled layers, then advance the watermarks. A failed run leaves
 * the watermarks where they were, and extraction is idempotent, so a retry is always safe.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { PipelineActivities } from './activities';

const { listTables, extractTable, rebuildModel, commitWatermarks } = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '5 minutes',
  retry: { maximumAttempts: 5, initialInterval: '30 seconds' },
});

export interface LoadSummary {
  tables: { table: string; rows: number }[];
  rows_extracted: number;
  layers: { layer: string; tables: number }[];
}

export async function incrementalLoad(): Promise<LoadSummary> {
  const tables = await listTables();
  const extracted = await Promise.all(tables.map((t) => extractTable(t)));
  const layers = await rebuildModel();
  await commitWatermarks(Object.fromEntries(extracted.map((e) => [e.table, e.watermark])));
  return {
    tables: extracted.map(({ table, rows }) => ({ table, rows })),
    rows_extracted: extracted.reduce((n, e) => n + e.rows, 0),
    layers,
  };
}
