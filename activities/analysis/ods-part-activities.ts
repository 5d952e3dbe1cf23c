/**
 * Data integration in parts (docs/fleet.md#ingestion-in-parts): the copy is planned, each part is an
 * activity of its own that any worker of the project's host takes (heartbeating, resumable), and a
 * last activity merges the parts into the ODS and applies the one-snapshot rule.
 */
import { ApplicationFailure, activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import { OrderedWrites } from '../../domain/metadata-store/ordered-writes';
import type { ParameterStore } from '../../domain/secrets/parameter-store';
import type { SourcePolicy } from '../../domain/sources/source-policy';
import { exploreSource } from '../../domain/sources/source-explorer';
import { assembleOds, type OdsPartCopy } from '../../domain/warehouse/ods-assembly';
import { planOdsParts, type OdsCopyPlan, type OdsPart } from '../../domain/warehouse/ods-copy-plan';
import { countedSourceSchema, estimatedRows } from '../../domain/warehouse/ods-ingestion';
import { copyOdsPart as copyPart } from '../../domain/warehouse/ods-part-copy';
import { snapshotVerdict, snapshotWarning } from '../../domain/warehouse/ods-snapshot-verdict';
import type { TableCopyResult } from '../../domain/warehouse/ods-table-copy';
import { keyRanges } from '../../domain/warehouse/pk-ranges';
import type { WarehouseEngine } from '../../domain/warehouse/warehouse-engine';
import { layerDatabaseName } from '../../domain/warehouse/warehouse-layout';
import type { ProjectSource } from '../../shared/mysql-source';
import type { Prd } from '../../shared/prd-schema';
import type { OdsSummary } from '../../shared/project-model';
import type { SourceSnapshot } from '../../shared/source-schema';
import { heartbeating } from '../heartbeating';
import { tableCopiedEvent } from './ods-progress';
import { connectOrExplain, connectorOf } from './source-access';

export interface OdsPartDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  /** Which sources the copy may connect to (checked before every connection). */
  sources: SourcePolicy;
  warehouseRoot: string;
  /** Where the later stages run; with Athena the assembled ODS is published there. */
  engine?: WarehouseEngine;
  /** PLAT_INGEST_PART_ROWS: about how many rows one part copies (default 1,000,000). */
  partRows?: number;
  /** PLAT_INGEST_MAX_ROWS_PER_SECOND: the most rows per second one part reads (0 or unset: no cap). */
  maxRowsPerSecond?: number;
}

export interface PlanOdsCopyRequest {
  project_id: string;
  source: ProjectSource;
  prd: Prd;
}

export interface CopyOdsPartRequest {
  project_id: string;
  source: ProjectSource;
  part: OdsPart;
  /** How many parts the copy has (for the log). */
  parts: number;
}

export interface FinishOdsRequest {
  project_id: string;
  prd: Prd;
  copies: OdsPartCopy[];
  /** Notes for the summary's warnings (e.g. why `reuse_ods` did not apply). */
  notes: string[];
}

export const DEFAULT_PART_ROWS = 1_000_000;

export function createOdsPartActivities({
  store,
  secrets,
  sources,
  warehouseRoot,
  engine,
  partRows,
  maxRowsPerSecond,
}: OdsPartDeps) {
  const schemaOf = async (projectId: string) => {
    const schema = await store.getArtifact<SourceSnapshot>(projectId, 'source_schema');
    if (!schema)
      throw new Error(`project ${projectId} has no planned copy (its source schema is not stored)`);
    return schema;
  };

  return {
    /**
     * Explores the source's columns and keys (saved for the parts and the later stages) and splits
     * the PRD's source tables into parts.
     */
    planOdsCopy: heartbeating(async (req: PlanOdsCopyRequest): Promise<OdsCopyPlan> => {
      const source = await connectorOf(secrets, req.source, sources);
      const db = await connectOrExplain(source);
      try {
        const explored = await exploreSource(db, source.target.database, {
          sampleRows: 0,
          countRows: false,
        });
        const wanted = new Set(req.prd.layers.ods.flatMap((t) => t.source_tables));
        const schema = { ...explored, tables: explored.tables.filter((t) => wanted.has(t.name)) };
        await store.putArtifact(req.project_id, 'source_schema', schema);
        return await planOdsParts(
          schema.tables,
          await estimatedRows(db),
          partRows ?? DEFAULT_PART_ROWS,
          (table, n) => keyRanges(db, table, n),
        );
      } finally {
        await db.end();
      }
    }),

    /** One part: its tables (resuming after the finished ones) or its key range, heartbeating every 5 s. */
    async copyOdsPart(req: CopyOdsPartRequest): Promise<OdsPartCopy> {
      const source = await connectorOf(secrets, req.source, sources);
      // A refused login fails the part for good here, not as a retried copy error.
      await (await connectOrExplain(source)).end();
      const { attempt } = activityInfo();
      const checkpoint = (activityInfo().heartbeatDetails as TableCopyResult[] | undefined) ?? [];
      let progress = checkpoint;
      const beat = setInterval(() => heartbeat(progress), 5_000);
      const writes = new OrderedWrites();
      const { part } = req;
      const where = `part ${part.id.slice(1)} of ${req.parts}`;
      try {
        const tables = await copyPart({
          warehouseRoot,
          projectId: req.project_id,
          source,
          schema: await schemaOf(req.project_id),
          part,
          done: checkpoint,
          maxRowsPerSecond,
          signal: cancellationSignal(),
          onTable: (copied, done) => {
            progress = done;
            heartbeat(done);
            const what =
              part.kind === 'range' ? `${copied.table} key range ${part.index + 1}/${part.of}` : copied.table;
            writes.push(() =>
              store.addEvents([
                tableCopiedEvent(
                  req.project_id,
                  `${part.id}:a${attempt}:${copied.table}`,
                  `copied ${what}: ${copied.ods_rows} rows (${where})`,
                  copied,
                  { part: part.id, parts: req.parts },
                ),
              ]),
            );
          },
        });
        return { part, tables };
      } finally {
        clearInterval(beat);
        heartbeat(progress);
        await writes.drain();
      }
    },

    /** Merges the parts into the ODS, checks every table's counts, and says how consistent the copy is. */
    finishOds: heartbeating(async (req: FinishOdsRequest): Promise<OdsSummary> => {
      const schema = await schemaOf(req.project_id);
      const result = await assembleOds({
        warehouseRoot,
        projectId: req.project_id,
        prd: req.prd,
        schema,
        copies: req.copies,
      });
      const mismatched = result.tables.filter((t) => t.source_rows !== t.ods_rows);
      if (mismatched.length) {
        throw ApplicationFailure.nonRetryable(
          `row counts differ: ${mismatched.map((t) => `${t.table} source ${t.source_rows} / ods ${t.ods_rows}`).join(', ')}`,
          'RowCountMismatch',
        );
      }
      await store.putArtifact(req.project_id, 'source_schema', countedSourceSchema(schema, result.tables));
      await engine?.publishOds(req.project_id, req.prd);
      const snapshot = snapshotVerdict(req.copies.flatMap((c) => c.tables));
      const consistency = snapshotWarning(snapshot);
      return {
        database: layerDatabaseName(req.project_id, 'ods'),
        database_file: result.database_file,
        tables: result.tables.map(({ table, source_rows, ods_rows }) => ({ table, source_rows, ods_rows })),
        rows_copied: result.rows_copied,
        warnings: [...req.notes, ...result.warnings, ...(consistency ? [consistency] : [])],
        snapshot,
        parts: req.copies.length,
      };
    }),
  };
}

export type OdsPartActivities = ReturnType<typeof createOdsPartActivities>;
