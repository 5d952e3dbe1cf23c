/**
 * Activities of the analysisProject workflow. Created with their dependencies (metadata store,
 * parameter store) so tests and the worker wire the same code to real instances.
 */
import { ApplicationFailure, activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import { buildOfflinePrd, OFFLINE_ANALYST_VERSION } from '../../domain/agents/offline-analyst/prd-builder';
import type { ParameterStore } from '../../domain/secrets/parameter-store';
import type { SourcePolicy } from '../../domain/sources/source-policy';
import { emptySourceMessage, exploreSource, type ToolCallRecord } from '../../domain/sources/source-explorer';
import { claudePrd } from '../../domain/agents/claude-prd-agent';
import type { LlmSettings } from '../../domain/llm/llm-settings';
import type { UsageRecord } from '../../shared/cost-ledger';
import type { Prd } from '../../shared/prd-schema';
import type { AnalysisProjectInput, OdsSummary, ProjectEvent, ProjectView } from '../../shared/project-model';
import { ingestOds, readSourceSchema, type OdsIngestionResult } from '../../domain/warehouse/ods-ingestion';
import { snapshotVerdict, snapshotWarning } from '../../domain/warehouse/ods-snapshot-verdict';
import { reuseOds } from '../../domain/warehouse/ods-reuse';
import type { TableCopyResult } from '../../domain/warehouse/ods-table-copy';
import { layerDatabaseName } from '../../domain/warehouse/warehouse-layout';
import type { WarehouseEngine } from '../../domain/warehouse/warehouse-engine';
import type { AgentLogEntry, ProjectStore } from '../../domain/metadata-store/project-store';
import type { LogShipper } from '../../domain/search-ops/plat-logs/log-shipper';
import { OrderedWrites } from '../../domain/metadata-store/ordered-writes';
import { tableCopiedEvent } from './ods-progress';
import { connectOrExplain, connectorOf } from './source-access';

export interface AnalysisActivityDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  /** Which sources the activities may connect to (checked before every connection). */
  sources: SourcePolicy;
  /** Claude settings; absent, the agents are the deterministic offline analysts. */
  llm?: LlmSettings;
  /** Root of the embedded warehouse (Parquet and DuckDB files). */
  warehouseRoot: string;
  /** The engine of the later stages; with Athena, ODS is published to S3 and Glue. */
  engine?: WarehouseEngine;
  /** Called with the events stored for the first time (metrics). */
  onStoredEvents?: (events: ProjectEvent[]) => void;
  /** Where agent logs also go when OpenSearch is configured (the `plat-agent-logs` alias). */
  agentLogs?: LogShipper;
  /** PLAT_INGEST_MAX_ROWS_PER_SECOND: the most rows per second one copy reads (0 or unset: no cap). */
  maxRowsPerSecond?: number;
}

export interface GeneratePrdRequest {
  project_id: string;
  description: string;
  source: AnalysisProjectInput['source'];
}

export interface IngestOdsRequest {
  project_id: string;
  source: AnalysisProjectInput['source'];
  prd: Prd;
  /** `requested`: the create request's `reuse_ods`; `from`: the completed project to reuse, if any. */
  reuse_ods?: { requested: boolean; from?: string };
}

export interface GeneratePrdResult {
  prd: Prd;
  usage: UsageRecord[];
}

export const PRODUCT_MANAGER = 'product_manager';

export function createAnalysisActivities({
  store,
  secrets,
  sources,
  llm,
  onStoredEvents,
  warehouseRoot,
  engine,
  agentLogs,
  maxRowsPerSecond,
}: AnalysisActivityDeps) {
  /**
   * Copies the source's tables into the project's ODS in one consistent snapshot, resuming from the
   * heartbeat; the schema as copied is kept for the later stages.
   */
  const copySource = async (req: IngestOdsRequest): Promise<OdsIngestionResult> => {
    const source = await connectorOf(secrets, req.source, sources);
    const db = await connectOrExplain(source);
    const attempt = activityInfo().attempt;
    const checkpoint = (activityInfo().heartbeatDetails as TableCopyResult[] | undefined) ?? [];
    let progress: TableCopyResult[] = checkpoint;
    const beat = setInterval(() => heartbeat(progress), 5_000);
    const writes = new OrderedWrites();
    try {
      // Columns and keys only: the copy counts rows itself, inside its consistent snapshot.
      const snapshot = await exploreSource(db, source.target.database, {
        sampleRows: 0,
        countRows: false,
      });
      return await ingestOds({
        projectId: req.project_id,
        warehouseRoot,
        source,
        snapshot,
        prd: req.prd,
        done: checkpoint,
        maxRowsPerSecond,
        // A draining worker cancels the copy after its grace time: the finished tables are in the
        // heartbeat, and the retry (on this host, once it is back) copies only the others.
        signal: cancellationSignal(),
        onTable: (copied, done) => {
          progress = done;
          heartbeat(done);
          writes.push(() =>
            store.addEvents([
              tableCopiedEvent(
                req.project_id,
                `a${attempt}:${copied.table}`,
                `copied ${copied.table}: ${copied.ods_rows} rows (${done.length}/${snapshot.tables.length} tables)`,
                copied,
                { tables_done: done.length },
              ),
            ]),
          );
        },
      });
    } finally {
      clearInterval(beat);
      // The last checkpoint now, not at the next throttled beat: a draining worker stops right after.
      heartbeat(progress);
      await db.end();
      await writes.drain();
    }
  };

  return {
    /** The product-manager agent: explores every table of the source and writes the PRD. */
    async generatePrd(req: GeneratePrdRequest): Promise<GeneratePrdResult> {
      const source = await connectorOf(secrets, req.source, sources);
      const db = await connectOrExplain(source);
      const attempt = activityInfo().attempt;
      let seq = 0;
      const logs: AgentLogEntry[] = [];
      const events: ProjectEvent[] = [];
      const writes = new OrderedWrites();
      const onToolCall = (call: ToolCallRecord & { input_tokens?: number; output_tokens?: number }) => {
        const key = `${req.project_id}:prd:a${attempt}:t${++seq}`;
        const timestamp = new Date().toISOString();
        logs.push({
          log_key: key,
          project_id: req.project_id,
          agent: PRODUCT_MANAGER,
          phase: 'prd',
          ...call,
          timestamp,
        });
        events.push({
          event_key: key,
          project_id: req.project_id,
          event_type: 'log_entry',
          phase: 'prd',
          status: 'running',
          message: `${call.tool}(${JSON.stringify(call.params)}): ${call.summary}`,
          timestamp,
          payload: { agent: PRODUCT_MANAGER, ...call },
        });
        // Stream the work log as it happens, not only when the agent is done.
        if (logs.length >= 10) flush();
      };
      const flush = () => {
        const batch = logs.splice(0);
        const batchEvents = events.splice(0);
        writes.push(async () => {
          await store.addAgentLogs(batch);
          await store.addEvents(batchEvents);
        });
        // The log key as the document id: a retried activity re-sends the same documents, as no-ops.
        for (const e of batch) agentLogs?.ship({ ...e, '@timestamp': e.timestamp }, e.log_key);
      };
      // Model calls can be slow: keep the heartbeat going independently of tool calls.
      const beat = setInterval(() => heartbeat({ tool_calls: seq }), 15_000);
      try {
        const snapshot = await exploreSource(db, source.target.database, { onToolCall });
        if (snapshot.tables.length === 0) {
          // Nothing to analyse, and a retry will not change that.
          throw ApplicationFailure.nonRetryable(emptySourceMessage(source.target.database), 'SourceEmpty');
        }
        if (llm) {
          return await claudePrd({ settings: llm, snapshot, db, description: req.description, onToolCall });
        }
        return {
          prd: buildOfflinePrd(snapshot, req.description),
          usage: [
            {
              agent_name: PRODUCT_MANAGER,
              phase: 'prd',
              tier: 'large',
              model: OFFLINE_ANALYST_VERSION,
              input_tokens: 0,
              output_tokens: 0,
              call_count: 0,
            },
          ],
        };
      } finally {
        clearInterval(beat);
        flush();
        await db.end();
        await writes.drain();
      }
    },

    /**
     * Data integration: source tables → Parquet in the project's ODS, resuming after the last finished
     * table; or, with `reuse_ods`, a completed project's ODS of the same source copied over.
     */
    async ingestOds(req: IngestOdsRequest): Promise<OdsSummary> {
      const notes: string[] = [];
      let reusedFrom: OdsSummary['reused_from'];
      let result: OdsIngestionResult | undefined;
      if (req.reuse_ods?.from) {
        const reuse = await reuseOds({
          warehouseRoot,
          fromProjectId: req.reuse_ods.from,
          projectId: req.project_id,
          prd: req.prd,
        });
        if ('reused' in reuse) {
          result = reuse.reused;
          reusedFrom = { project_id: req.reuse_ods.from, copied_at: reuse.copied_at };
        } else notes.push(`reuse_ods: ${reuse.unusable}; copied from the source instead`);
      } else if (req.reuse_ods?.requested) {
        notes.push('reuse_ods: none of your completed projects reads this source; copied from the source');
      }
      result ??= await copySource(req);
      const mismatched = result.tables.filter((t) => t.source_rows !== t.ods_rows);
      if (mismatched.length) {
        throw ApplicationFailure.nonRetryable(
          `row counts differ: ${mismatched.map((t) => `${t.table} source ${t.source_rows} / ods ${t.ods_rows}`).join(', ')}`,
          'RowCountMismatch',
        );
      }
      // The later stages read the schema from the metadata store, on whichever host they run.
      await store.putArtifact(
        req.project_id,
        'source_schema',
        readSourceSchema(warehouseRoot, req.project_id),
      );
      // Where the later stages run elsewhere (Athena), the ODS goes there too.
      await engine?.publishOds(req.project_id, req.prd);
      const snapshot = reusedFrom ? undefined : snapshotVerdict(result.tables);
      const consistency = snapshot && snapshotWarning(snapshot);
      return {
        database: layerDatabaseName(req.project_id, 'ods'),
        database_file: result.database_file,
        tables: result.tables.map(({ table, source_rows, ods_rows }) => ({ table, source_rows, ods_rows })),
        rows_copied: result.rows_copied,
        warnings: [...notes, ...result.warnings, ...(consistency ? [consistency] : [])],
        ...(reusedFrom ? { reused_from: reusedFrom } : { snapshot, parts: 1 }),
      };
    },

    /** Persists the project's latest view and new events (idempotent by event key). */
    async recordProgress(view: ProjectView, events: ProjectEvent[]): Promise<void> {
      // Save first: `f?.(save())` would skip the save when there is no observer.
      const stored = await store.saveProgress(view, events);
      onStoredEvents?.(stored);
    },
  };
}

export type AnalysisActivities = ReturnType<typeof createAnalysisActivities>;
