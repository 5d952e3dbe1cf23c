/**
 * `plat projects report ID <kind>` and `plat projects query ID --sql ...`: the warehouse stages'
 * reports and SQL access, readable in a terminal (or raw with --json).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STAGE_REPORTS, type ReportPath } from '../../shared/analysis-stages';
import { PathEscapeError, pathInside } from '../../shared/safe-file-name';
import type { operations } from '../../shared/generated/platform-api';
import { ApiError, ok, type PlatformClient } from './api-client';
import { table } from './render';

/** Every stage's report (the stage table), and `dbt`: the dbt project inside the pipeline templates. */
export const REPORT_KINDS: readonly string[] = [...STAGE_REPORTS.map((r) => r.path), 'dbt'];
type Report = Record<string, unknown> & { project_id: string };
type QueryLayer = NonNullable<
  operations['queryWarehouse']['requestBody']
>['content']['application/json']['layer'];
type Rows = Record<string, unknown>[];

/** A report's kind: a stage's report (the stage table), or `dbt`. */
export type ReportKind = ReportPath | 'dbt';
/** How a report reads in a terminal; `outDir` is `--out`, where the file reports write their files. */
type ReportView = (data: Report, outDir?: string) => string;

const rows = (data: Report, key: string) => (data[key] ?? []) as Rows;
/** The reports made of files: `--out` writes them, and they read as a listing of their files. */
const FILE_REPORTS: readonly ReportKind[] = ['pipeline', 'dbt'];

/**
 * The reports that have a terminal view. A report the stage table gains shows as its JSON until it
 * gets one here (docs/architecture.md#adding-a-stage).
 */
const REPORT_VIEWS: Partial<Record<ReportKind, ReportView>> = {
  quality: (data) =>
    `${String(data.rules_passed)}/${String(data.rules_total)} rules passed, ${String(data.rules_failed)} failed, ${String(data.rules_errored)} could not run\n\n` +
    table(rows(data, 'results'), ['severity', 'status', 'name', 'violations', 'message']),
  metrics: (data) => table(rows(data, 'results'), ['name', 'valid', 'reason']),
  scripts: (data) =>
    rows(data, 'layers')
      .map((l) => String(l.script))
      .join('\n'),
  catalog: (data) =>
    table(
      rows(data, 'tables').map((t) => ({ ...t, upstream: (t.upstream as string[]).join(', ') })),
      ['database', 'table', 'row_count', 'partition_by', 'upstream'],
    ),
  profile: (data) => String(data.markdown ?? reportJson(data)),
  dashboards: (data) =>
    `${String(data.url)}\n\n` +
    table(
      rows(data, 'dashboards').map((d) => ({
        ...d,
        charts: (d.charts as { metric: string }[]).map((c) => c.metric).join(', '),
      })),
      ['title', 'charts'],
    ),
  ...Object.fromEntries(FILE_REPORTS.map((kind) => [kind, fileListing])),
};

const reportJson = (data: Report) => JSON.stringify(data, null, 2);

/** Renders one report as text; `outDir` writes the pipeline templates (or the dbt project) to disk. */
export async function report(
  api: PlatformClient,
  id: string,
  kind: string,
  outDir?: string,
): Promise<{ data: Report; text: string }> {
  if (!REPORT_KINDS.includes(kind))
    throw new ApiError(2, 'usage', `report kind must be one of ${REPORT_KINDS.join(', ')}`);
  // Refused before anything is asked: a --out that writes nothing would look like success.
  if (outDir !== undefined && !FILE_REPORTS.includes(kind as ReportKind))
    throw new ApiError(
      2,
      'usage',
      `--out writes a report's files: only ${FILE_REPORTS.join(' and ')} have them`,
    );
  // The dbt project is the `dbt/` folder of the pipeline templates (docs/dbt-export.md).
  const route = `/v1/projects/{project_id}/${kind === 'dbt' ? 'pipeline' : (kind as ReportPath)}` as const;
  const data: Report = await ok(api.http.GET(route, { params: { path: { project_id: id } } }));
  if (kind === 'dbt')
    data.files = ((data.files ?? []) as { path: string; content: string }[])
      .filter((f) => f.path.startsWith('dbt/'))
      .map((f) => ({ ...f, path: f.path.slice('dbt/'.length) }));
  return { data, text: reportText(kind as ReportKind, data, outDir) };
}

/** The report as its view reads it, or as JSON where it has no view. */
export function reportText(kind: ReportKind, data: Report, outDir?: string): string {
  const view = REPORT_VIEWS[kind];
  return view ? view(data, outDir) : reportJson(data);
}

/** A file report's listing; with `outDir`, its files written there first. */
function fileListing(data: Report, outDir?: string): string {
  const files = rows(data, 'files') as { path: string; content: string }[];
  if (outDir) {
    // Every path is checked before anything is written: a bad one writes nothing.
    const targets = files.map((f) => outputFile(outDir, f.path));
    files.forEach((f, i) => {
      fs.mkdirSync(path.dirname(targets[i]), { recursive: true });
      fs.writeFileSync(targets[i], f.content);
    });
  }
  const listing = files.map((f) => `  ${f.path}`).join('\n');
  return outDir
    ? `wrote ${files.length} files to ${outDir}:\n${listing}\n\nnext: read ${path.join(outDir, 'README.md')}`
    : `${files.length} files (write them with --out DIR):\n${listing}`;
}

/** A segment of a generated file's path: plat encodes names into these (no separator, control or quote). */
const SAFE_SEGMENT = /^[A-Za-z0-9_%~.-]+$/;

/**
 * Where a file the server listed goes under `outDir`. The server names the files from source and
 * PRD names, so its paths are data: each segment must be a plain file name, and the whole must stay
 * inside `outDir` (no `..`, no absolute path, no symbolic link leading out).
 */
export function outputFile(outDir: string, relative: string): string {
  const segments = relative.split('/');
  const bad = segments.find((s) => !SAFE_SEGMENT.test(s) || /^\.+$/.test(s));
  if (bad !== undefined)
    throw new ApiError(
      1,
      'unsafe_path',
      `refusing to write ${JSON.stringify(relative)}: not a plain relative path`,
    );
  try {
    return pathInside(outDir, ...segments);
  } catch (err) {
    if (err instanceof PathEscapeError)
      throw new ApiError(1, 'unsafe_path', `refusing to write ${JSON.stringify(relative)}: ${err.message}`);
    throw err;
  }
}

/** Runs read-only SQL on a layer and renders the rows. */
export async function query(
  api: PlatformClient,
  id: string,
  sql: string,
  layer: string,
): Promise<{ data: Report; text: string }> {
  const result = await ok(
    api.http.POST('/v1/projects/{project_id}/query', {
      params: { path: { project_id: id } },
      body: { sql, layer: layer as QueryLayer },
    }),
  );
  const data = { ...result, project_id: id } as Report;
  return {
    data,
    text: `${table(result.rows, result.columns)}\n(${result.rows.length} rows${result.truncated ? ', truncated' : ''}, ${result.duration_ms} ms)`,
  };
}
