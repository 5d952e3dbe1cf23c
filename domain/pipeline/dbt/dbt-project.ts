/**
 * The warehouse as a dbt project (docs/dbt-export.md), part of the pipeline templates: the ODS
 * Parquet files as sources, the DWD/DWS/ADS SQL as models, the quality rules as tests, the
 * dashboards as exposures and the ADS metrics as semantic models and metrics. `dbt build` with
 * dbt-duckdb over the project's ODS files gives the same tables plat built.
 */
import { stringify } from 'yaml';
import type { Prd } from '../../../shared/prd-schema';
import type { LayerTableSpec } from '../../warehouse/warehouse-engine';
import { dbtModels, literalText, ODS_SOURCE } from './dbt-models';
import { daysMacro, INCREMENTAL_MACROS, type IncrementalModel } from './dbt-incremental-macros';
import { exposures, semanticLayer, semanticName } from './dbt-semantic-layer';
import { dbtTests, type ColumnTests } from './dbt-tests';
import { fileNameFor } from '../../../shared/safe-file-name';

/** The pinned versions the project is tested with (scripts/versions.env; DuckDB the engine plat embeds). */
export const DBT_REQUIREMENTS = 'dbt-core==1.11.16 dbt-duckdb==1.11.1 duckdb==1.5.6';

export interface DbtFile {
  path: string;
  content: string;
}

const yaml = (value: unknown, header: string) =>
  `# ${header}\n${stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })}`;

type LayerSpecs = { layer: string; tables: LayerTableSpec[] }[];

/**
 * Every file of the dbt project, paths relative to its root; the models in `incremental`
 * (dbt-incremental.ts) rebuilt by day, the others whole.
 */
export function generateDbtProject(opts: {
  projectId: string;
  prd: Prd;
  layers: LayerSpecs;
  incremental?: ReadonlyMap<string, IncrementalModel>;
}): DbtFile[] {
  const { projectId, prd, layers } = opts;
  const incremental = opts.incremental ?? new Map<string, IncrementalModel>();
  const name = semanticName('plat', projectId);
  const tests = dbtTests(prd);
  return [
    ...projectFiles(projectId, prd, name),
    { path: 'macros/plat_incremental.sql', content: INCREMENTAL_MACROS },
    { path: 'macros/plat_days.sql', content: daysMacro(incremental) },
    sourcesFile(prd, tests),
    ...modelFiles(projectId, prd, layers, tests, incremental),
    ...semanticFiles(prd),
    ...exposureFiles(prd),
    { path: 'README.md', content: readme(projectId, prd, name) },
  ];
}

/** A table's columns with their tests, as a sources or models file lists them. */
function columnsOf(tests: ColumnTests, table: string, fields: { name: string; description?: string }[]) {
  return [
    ...fields.map((f) => {
      const columnTests = tests.byColumn.get(table)?.get(f.name);
      return {
        name: f.name,
        // Quoted in tests: a column may be named like a keyword (`order`, `group`).
        quote: true,
        ...(f.description ? { description: literalText(f.description) } : {}),
        ...(columnTests ? { data_tests: columnTests } : {}),
      };
    }),
    // A rule on an ODS column kept under its source name (`price $`): listed under that name.
    ...[...(tests.byColumn.get(table) ?? [])]
      .filter(([column]) => !fields.some((f) => f.name === column))
      .map(([column, columnTests]) => ({ name: column, quote: true, data_tests: columnTests })),
  ];
}

/** `dbt_project.yml` and `profiles.yml`. */
function projectFiles(projectId: string, prd: Prd, name: string): DbtFile[] {
  return [
    {
      path: 'dbt_project.yml',
      content: yaml(
        {
          name,
          version: '1.0.0',
          profile: 'plat',
          'model-paths': ['models'],
          'macro-paths': ['macros'],
          'test-paths': ['tests'],
          // The incremental models' window on plat's change log (macros/plat_incremental.sql).
          'on-run-start': ['{{ plat_open_change_window() }}'],
          flags: { send_anonymous_usage_stats: false },
          models: { [name]: { '+materialized': 'table' } },
        },
        `dbt project of plat analysis project ${projectId}: ${prd.title}`,
      ),
    },
    {
      path: 'profiles.yml',
      content: yaml(
        {
          plat: {
            target: 'dev',
            outputs: {
              dev: { type: 'duckdb', path: "{{ env_var('PLAT_DBT_DATABASE', 'plat.duckdb') }}", threads: 4 },
            },
          },
        },
        'DuckDB, one file; PLAT_DBT_DATABASE chooses it',
      ),
    },
  ];
}

/** `models/sources.yml`: the ODS Parquet files, their freshness and quality rules. */
function sourcesFile(prd: Prd, tests: ColumnTests): DbtFile {
  const odsTables = prd.layers.ods.map((t) => {
    const freshness = tests.freshness.get(t.name);
    return {
      name: t.name,
      description: literalText(t.description),
      config: {
        meta: {
          // The ODS file's name as data integration writes it: no quote, brace or path in it.
          external_location: `read_parquet('{{ env_var('PLAT_ODS_DIR') }}/${fileNameFor(t.source_tables[0])}.parquet')`,
        },
        ...(freshness
          ? {
              // An expression to dbt: a source name that is not a plain identifier is quoted.
              loaded_at_field: /^[a-z_][a-z0-9_]*$/.test(freshness.column)
                ? freshness.column
                : `"${freshness.column.replace(/"/g, '""')}"`,
              freshness: { warn_after: { count: freshness.max_age_days, period: 'day' } },
            }
          : {}),
      },
      columns: columnsOf(tests, t.name, t.fields),
    };
  });
  return {
    path: 'models/sources.yml',
    content: yaml(
      {
        version: 2,
        sources: [
          {
            name: ODS_SOURCE,
            description: `The ODS copy of ${prd.source.database}: one Parquet file per source table in $PLAT_ODS_DIR`,
            tables: odsTables,
          },
        ],
      },
      'ODS sources and their quality rules',
    ),
  };
}

/** The DWD/DWS/ADS models' SQL, a properties file per layer, and the singular tests. */
function modelFiles(
  projectId: string,
  prd: Prd,
  layers: LayerSpecs,
  tests: ColumnTests,
  incremental: ReadonlyMap<string, IncrementalModel>,
): DbtFile[] {
  const models = dbtModels(projectId, layers, incremental);
  const files = models.map((model) => ({
    path: `models/${model.layer}/${fileNameFor(model.name)}.sql`,
    content: model.sql,
  }));
  for (const layer of ['dwd', 'dws', 'ads'] as const) {
    const tables = prd.layers[layer].filter((t) => models.some((m) => m.name === t.name));
    if (!tables.length) continue;
    files.push({
      path: `models/${layer}/_${layer}.yml`,
      content: yaml(
        {
          version: 2,
          models: tables.map((t) => ({
            name: t.name,
            description: literalText(`${t.description} (grain: ${t.grain})`),
            columns: columnsOf(tests, t.name, t.fields),
          })),
        },
        `${layer.toUpperCase()} models`,
      ),
    });
  }
  for (const t of tests.singular) files.push({ path: `tests/${fileNameFor(t.name)}.sql`, content: t.sql });
  return files;
}

/** The time spine and the ADS metrics as semantic models and metrics; none without metrics. */
function semanticFiles(prd: Prd): DbtFile[] {
  const semantic = semanticLayer(prd);
  if (!semantic.semantic_models.length) return [];
  return [
    {
      path: 'models/semantic/metricflow_time_spine.sql',
      content:
        "-- One row a day: the time spine dbt's semantic layer needs\n{{ config(materialized='table') }}\n\n" +
        "SELECT CAST(d AS DATE) AS date_day FROM range(DATE '1900-01-01', DATE '2101-01-01', INTERVAL 1 DAY) AS t(d)\n",
    },
    {
      path: 'models/semantic/semantic_layer.yml',
      content: yaml(
        {
          version: 2,
          models: [
            {
              name: 'metricflow_time_spine',
              description: 'Every day from 1900 to 2100',
              time_spine: { standard_granularity_column: 'date_day' },
              columns: [{ name: 'date_day', granularity: 'day' }],
            },
          ],
          ...semantic,
        },
        'ADS metrics as semantic models and metrics',
      ),
    },
  ];
}

/** `models/exposures.yml`: the dashboards; none without dashboards. */
function exposureFiles(prd: Prd): DbtFile[] {
  const dashboards = exposures(prd);
  return dashboards.length
    ? [
        {
          path: 'models/exposures.yml',
          content: yaml({ version: 2, exposures: dashboards }, 'Dashboards as exposures'),
        },
      ]
    : [];
}

function readme(projectId: string, prd: Prd, name: string): string {
  return `# ${prd.title}: the warehouse as a dbt project

Generated by plat for project \`${projectId}\` from the approved PRD (\`${name}\`).

- \`models/sources.yml\`: the ODS copy of \`${prd.source.database}\`, one Parquet file per source table, with the
  PRD's quality rules as tests (a warning rule warns, a blocking rule fails the build).
- \`models/dwd\`, \`models/dws\`, \`models/ads\`: the SQL plat ran, as models; those plat rebuilds by
  day are incremental here too (\`macros/plat_incremental.sql\`, \`macros/plat_days.sql\`).
- \`models/semantic/semantic_layer.yml\`: the ADS metrics as semantic models and metrics.
- \`models/exposures.yml\`: the dashboards.

Build it with DuckDB over the ODS files (\`plat projects report ${projectId} dbt --out DIR\` wrote this folder;
the ODS files are in the project's warehouse directory, \`<warehouse>/${projectId}/ods\`):

\`\`\`sh
python3 -m venv .venv && .venv/bin/pip install ${DBT_REQUIREMENTS}
export PLAT_ODS_DIR=/path/to/warehouse/${projectId}/ods PLAT_DBT_DATABASE=warehouse.duckdb
.venv/bin/dbt build --profiles-dir . --project-dir .
.venv/bin/dbt source freshness --profiles-dir . --project-dir .   # the PRD's freshness rules
\`\`\`

After plat refreshes the project, \`dbt build\` again recomputes in each incremental model only the days
its inputs' changes touch, read from the ODS's change log (\`$PLAT_ODS_DIR/change-log\`, kept 35 days; run
dbt after a refresh ends). A range of days again, as plat's backfill:

\`\`\`sh
.venv/bin/dbt build --profiles-dir . --project-dir . --vars '{plat_from: "2025-01-01", plat_to: "2025-01-31"}'
\`\`\`

\`--full-refresh\` builds every model whole (needed when the last build is older than the change log).

To run it elsewhere, change \`profiles.yml\` (another adapter) and the sources' \`external_location\`.
`;
}
