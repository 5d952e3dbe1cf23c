/** What the copy tells the project once its tables are in the ODS: the checks both copy paths share. */
import { ApplicationFailure } from '@temporalio/activity';
import type { ProjectStore } from '../../../domain/metadata-store/project-store';
import type { OdsIngestionResult } from '../../../domain/warehouse/ods-ingestion';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { layerDatabaseName } from '../../../domain/warehouse/warehouse-layout';
import type { OdsSummary } from '../../../shared/project-model';

/** Fails the project for good when any table's ODS count differs from its source count. */
export function refuseMismatchedCounts(tables: OdsIngestionResult['tables']): void {
  const mismatched = tables.filter((t) => t.source_rows !== t.ods_rows);
  if (mismatched.length) {
    throw ApplicationFailure.nonRetryable(
      `row counts differ: ${mismatched.map((t) => `${t.table} source ${t.source_rows} / ods ${t.ods_rows}`).join(', ')}`,
      'RowCountMismatch',
    );
  }
}

/** The copied source schema the later stages read (from the store, on whichever host they run). */
export async function storedSourceSchema(store: ProjectStore, projectId: string): Promise<SourceSnapshot> {
  const schema = await store.getArtifact<SourceSnapshot>(projectId, 'source_schema');
  if (!schema) throw new Error(`project ${projectId} has no planned copy (its source schema is not stored)`);
  return schema;
}

/** The project view's summary of the copy, with `warnings` and what only one path knows in `extra`. */
export function odsSummary(
  projectId: string,
  result: Pick<OdsIngestionResult, 'database_file' | 'tables' | 'rows_copied'>,
  warnings: string[],
  extra: Pick<OdsSummary, 'reused_from' | 'snapshot' | 'parts'>,
): OdsSummary {
  return {
    database: layerDatabaseName(projectId, 'ods'),
    database_file: result.database_file,
    tables: result.tables.map(({ table, source_rows, ods_rows }) => ({ table, source_rows, ods_rows })),
    rows_copied: result.rows_copied,
    warnings,
    ...extra,
  };
}
