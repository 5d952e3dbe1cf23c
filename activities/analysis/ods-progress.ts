/** The data-integration log entry of one copied table (or key range), as the project's event stream shows it. */
import type { ProjectEvent } from '../../shared/project-model';
import type { TableCopyResult } from '../../domain/warehouse/ods-table-copy';

export function tableCopiedEvent(
  projectId: string,
  key: string,
  message: string,
  copied: TableCopyResult,
  extra: Record<string, unknown> = {},
): ProjectEvent {
  return {
    event_key: `${projectId}:ods:${key}`,
    project_id: projectId,
    event_type: 'log_entry',
    phase: 'data_ingestion',
    status: 'running',
    message,
    timestamp: new Date().toISOString(),
    payload: { table: copied.table, source_rows: copied.source_rows, ods_rows: copied.ods_rows, ...extra },
  };
}
