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

/** Renders one report as text; `outDir` writes the pipeline templates (or the dbt project) to disk. */
export async function report(
  api: PlatformClient,
  id: string,
  kind: string,
  outDir?: string,
): Promise<{ data: Report; text: string }> {
  if (!REPORT_KINDS.includes(kind))
    throw new ApiError(2, 'usage', `report kind must be one of ${REPORT_KINDS.join(', ')}`);
  // The dbt project is the `dbt/` folder of the pipeline templates (docs/dbt-export.md).
  const route = `/v1/projects/{project_id}/${kind === 'dbt' ? 'pipeline' : (kind as ReportPath)}` as const;
  const data: Report = await ok(api.http.GET(route, { params: { path: { project_id: id } } }));
  if (kind === 'dbt')
    data.files = ((data.files ?? []) as { path: string; content: string }[])
      .filter((f) => f.path.startsWith('dbt/'))
      .map((f) => ({ ...f, path: f.path.slice('dbt/'.length) }));
  const rows = (key: string) => (data[key] ?? []) as Rows;
  switch (kind) {
    case 'quality':
      return {
        data,
        text:
          `${String(data.rules_passed)}/${String(data.rules_total)} rules passed, ${String(data.rules_failed)} failed, ${String(data.rules_errored)} could not run\n\n` +
          table(rows('results'), ['severity', 'status', 'name', 'violations', 'message']),
      };
    case 'metrics':
      return { data, text: table(rows('results'), ['name', 'valid', 'reason']) };
    case 'scripts':
      return {
        data,
        text: rows('layers')
          .map((l) => String(l.script))
          .join('\n'),
      };
    case 'catalog':
      return {
        data,
        text: table(
          rows('tables').map((t) => ({ ...t, upstream: (t.upstream as string[]).join(', ') })),
          ['database', 'table', 'row_count', 'partition_by', 'upstream'],
        ),
      };
    case 'profile':
      return { data, text: String(data.markdown ?? JSON.stringify(data, null, 2)) };
    case 'dashboards':
      return {
        data,
        text:
          `${String(data.url)}\n\n` +
          table(
            rows('dashboards').map((d) => ({
              ...d,
              charts: (d.charts as { metric: string }[]).map((c) => c.metric).join(', '),
            })),
            ['title', 'charts'],
          ),
      };
    default: {
      const files = rows('files') as { path: string; content: string }[];
      if (outDir) {
        // Every path is checked before anything is written: a bad one writes nothing.
        const targets = files.map((f) => outputFile(outDir, f.path));
        files.forEach((f, i) => {
          fs.mkdirSync(path.dirname(targets[i]), { recursive: true });
          fs.writeFileSync(targets[i], f.content);
        });
      }
      const listing = files.map((f) => `  ${f.path}`).join('\n');
      return {
        data,
        text: outDir
          ? `wrote ${files.length} files to ${outDir}:\n${listing}\n\nnext: read ${path.join(outDir, 'README.md')}`
          : `${files.length} files (write them with --out DIR):\n${listing}`,
      };
    }
  }
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
