/**
 * Activities of the warehouse stages after approval: data modeling, data governance, query
 * building and visualization. Each writes its full report as a project artifact (served by the API)
 * and returns a summary for the project view.
 */
import { ApplicationFailure, activityInfo } from '@temporalio/activity';
import type { Prd } from '../../shared/prd-schema';
import type { PhaseName, ProjectEvent } from '../../shared/project-model';
import type {
  GovernanceSummary,
  MetricValidationSummary,
  ModelingSummary,
  PipelineSummary,
  ProfileSummary,
  VisualizationSummary,
} from '../../shared/warehouse-model';
import { generatePipelineTemplates } from '../../domain/pipeline/pipeline-templates';
import { buildDataProfile } from '../../domain/advisor/data-profile';
import { renderProfileMarkdown } from '../../domain/advisor/profile-markdown';
import type { QualityReport } from '../../domain/governance/quality-checks';
import { buildCatalog } from '../../domain/governance/catalog';
import { evaluateQualityRules } from '../../domain/governance/quality-checks';
import { buildDashboardSpec, dashboardUrl } from '../../domain/visualization/dashboard-spec';
import { validateMetrics, type MetricValidationReport } from '../../domain/warehouse/metric-validation';
import {
  layerScript,
  layerSelects,
  MODELED_LAYERS,
  ModelSqlError,
  type ModeledLayer,
} from '../../domain/warehouse/model-sql';
import { claudeRepairSelect, DATA_MODELER } from '../../domain/agents/claude-sql-repair';
import type { LlmSettings } from '../../domain/llm/llm-settings';
import { layerNames } from '../../shared/prd-schema';
import {
  LayerBuildError,
  type LayerTableSpec,
  type WarehouseEngine,
} from '../../domain/warehouse/warehouse-engine';
import { layerDatabaseName } from '../../domain/warehouse/warehouse-layout';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import { allHeartbeating } from '../heartbeating';
import { loadSourceSchema } from './source-access';

export interface WarehouseActivityDeps {
  store: ProjectStore;
  warehouseRoot: string;
  engine: WarehouseEngine;
  /** Base URL of the gateway as users reach it (for bi_dashboard_url). */
  publicUrl: string;
  /** Claude settings; when set, a failing modeling statement is repaired by the model. */
  llm?: LlmSettings;
}

/** Repairs Claude may make per layer before the stage fails with the statement. */
const MAX_REPAIRS = 2;

export interface WarehouseStageRequest {
  project_id: string;
  prd: Prd;
}

/** The stored modeling scripts: per layer the whole script and each table's SELECT. */
export interface ModelScripts {
  layers: { layer: string; database: string; script: string; tables: LayerTableSpec[] }[];
}

export function createWarehouseActivities({
  store,
  warehouseRoot,
  engine,
  publicUrl,
  llm,
}: WarehouseActivityDeps) {
  const log = async (projectId: string, phase: PhaseName, key: string, message: string, payload = {}) => {
    const event: ProjectEvent = {
      event_key: `${projectId}:${phase}:a${activityInfo().attempt}:${key}`,
      project_id: projectId,
      event_type: 'log_entry',
      phase,
      status: 'running',
      message,
      timestamp: new Date().toISOString(),
      payload,
    };
    await store.addEvents([event]);
  };

  /**
   * Builds one layer; when a statement fails and a model is configured, Claude repairs that SELECT
   * (at most MAX_REPAIRS times per layer). Offline, the failing statement is reported as is.
   */
  const buildWithRepairs = async (
    projectId: string,
    prd: Prd,
    entry: ModelScripts['layers'][number],
    summary: ModelingSummary,
  ) => {
    const layer = entry.layer as ModeledLayer;
    for (let repairs = 0; ; repairs++) {
      try {
        return await engine.buildLayer(projectId, layer, entry.tables);
      } catch (err) {
        if (!(err instanceof LayerBuildError)) throw err;
        if (!llm || repairs >= MAX_REPAIRS)
          throw modelFailure(err.layer, err.table, err.statement, err.reason);
        const readable = [];
        for (const lower of layerNames.slice(0, layerNames.indexOf(layer)))
          for (const t of await engine.describeLayer(projectId, lower))
            readable.push({ name: `${layerDatabaseName(projectId, lower)}."${t.name}"`, columns: t.columns });
        const fix = await claudeRepairSelect({
          settings: llm,
          layer,
          table: prd.layers[layer].find((t) => t.name === err.table)!,
          statement: err.statement,
          reason: err.reason,
          readable,
        });
        summary.usage.push(fix.usage);
        summary.repairs.push({ layer, table: err.table, reason: err.reason });
        entry.tables = entry.tables.map((t) => (t.name === err.table ? { ...t, select: fix.select } : t));
        await log(
          projectId,
          'data_modeling',
          `repair:${layer}:${err.table}:${repairs}`,
          `repaired ${err.table} with Claude after: ${err.reason}`,
          {
            agent: DATA_MODELER,
            table: err.table,
            input_tokens: fix.usage.input_tokens,
            output_tokens: fix.usage.output_tokens,
          },
        );
      }
    }
  };

  return allHeartbeating({
    /** Data modeling: the DWD, DWS and ADS scripts written from the PRD, stored, then executed layer by layer. */
    async buildWarehouseModel({ project_id, prd }: WarehouseStageRequest): Promise<ModelingSummary> {
      const source = await loadSourceSchema(store, warehouseRoot, project_id);
      const scripts: ModelScripts = { layers: [] };
      try {
        for (const layer of MODELED_LAYERS) {
          const tables = layerSelects(prd, layer, project_id, source);
          scripts.layers.push({
            layer,
            database: layerDatabaseName(project_id, layer),
            script: layerScript(project_id, layer, tables),
            tables,
          });
        }
      } catch (err) {
        if (err instanceof ModelSqlError) throw modelFailure(err.layer, err.table, '', err.message);
        throw err;
      } finally {
        // Stored before running, so a failing script can be read through the API.
        await store.putArtifact(project_id, 'model_scripts', scripts);
      }
      const summary: ModelingSummary = { layers: [], repairs: [], usage: [] };
      for (const entry of scripts.layers) {
        const layer = entry.layer as ModeledLayer;
        const built = await buildWithRepairs(project_id, prd, entry, summary);
        if (summary.repairs.some((r) => r.layer === layer)) {
          entry.script = layerScript(project_id, layer, entry.tables);
          await store.putArtifact(project_id, 'model_scripts', scripts);
        }
        summary.layers.push({
          layer,
          database: entry.database,
          tables: built.map((t) => ({
            name: t.name,
            row_count: t.row_count,
            columns: t.columns.length,
            partition_by: t.partition_by,
          })),
        });
        await log(
          project_id,
          'data_modeling',
          layer,
          `built ${entry.database}: ${built.map((t) => `${t.name} (${t.row_count} rows)`).join(', ')}`,
          { layer, tables: built.length },
        );
      }
      return summary;
    },

    /** Data governance: quality rules evaluated into a report; every table registered in the catalog with lineage. */
    async governWarehouse({ project_id, prd }: WarehouseStageRequest): Promise<GovernanceSummary> {
      const report = await evaluateQualityRules(engine, project_id, prd);
      await store.putArtifact(project_id, 'quality_report', report);
      for (const r of report.results.filter((x) => x.status !== 'passed')) {
        await log(
          project_id,
          'data_governance',
          `rule:${r.name}`,
          `${r.severity} rule "${r.name}" ${r.status}: ${r.message}`,
          {
            rule: r.name,
            status: r.status,
            severity: r.severity,
            violations: r.violations,
          },
        );
      }
      const scripts = await store.getArtifact<ModelScripts>(project_id, 'model_scripts');
      const selects = Object.fromEntries((scripts?.layers ?? []).map((l) => [l.layer, l.tables]));
      const catalog = await buildCatalog(engine, project_id, prd, selects);
      await store.putArtifact(project_id, 'catalog', catalog);
      await log(
        project_id,
        'data_governance',
        'catalog',
        `registered ${catalog.tables.length} tables with lineage`,
        {
          tables: catalog.tables.length,
          lineage_edges: catalog.lineage.length,
        },
      );
      return {
        rules_total: report.rules_total,
        rules_passed: report.rules_passed,
        rules_failed: report.rules_failed,
        rules_errored: report.rules_errored,
        blocking_failed: report.blocking_failed,
        catalog_tables: catalog.tables.length,
      };
    },

    /** Query building: every ADS metric's SQL run and sanity-checked. */
    async validateMetricSql({ project_id, prd }: WarehouseStageRequest): Promise<MetricValidationSummary> {
      const report = await validateMetrics(engine, project_id, prd);
      await store.putArtifact(project_id, 'metric_validation', report);
      for (const r of report.results)
        await log(
          project_id,
          'query_building',
          `metric:${r.name}`,
          `${r.name}: ${r.valid ? 'valid' : 'invalid'}, ${r.reason}`,
          {
            metric: r.name,
            valid: r.valid,
          },
        );
      return {
        metrics_total: report.results.length,
        valid: report.results.filter((r) => r.valid).map((r) => r.name),
        invalid: report.results.filter((r) => !r.valid).map((r) => ({ name: r.name, reason: r.reason })),
      };
    },

    /** Visualization: datasets (valid metrics) and dashboards, served live by the gateway's dashboard page. */
    async buildDashboards({ project_id, prd }: WarehouseStageRequest): Promise<VisualizationSummary> {
      const validation = await store.getArtifact<MetricValidationReport>(project_id, 'metric_validation');
      const url = dashboardUrl(publicUrl, project_id);
      const spec = buildDashboardSpec(prd, validation, url);
      await store.putArtifact(project_id, 'dashboards', spec);
      return {
        url,
        dashboards: spec.dashboards.length,
        charts: spec.dashboards.reduce((n, d) => n + d.charts.length, 0),
      };
    },

    /** The analytics advisor: the data-profile report (docs/requirements.md#data-profile) over ODS, using the quality report when there is one. */
    async profileData({ project_id, prd }: WarehouseStageRequest): Promise<ProfileSummary> {
      const quality = await store.getArtifact<QualityReport>(project_id, 'quality_report');
      const schema = await loadSourceSchema(store, warehouseRoot, project_id);
      // Profiled locally: on the host's own files, or (Athena) a download of the published ODS.
      const ods = await engine.localOds(project_id);
      let report;
      try {
        report = await buildDataProfile({
          warehouseRoot: ods.warehouseRoot,
          projectId: project_id,
          prd,
          schema,
          quality: quality && {
            rules_total: quality.rules_total,
            rules_passed: quality.rules_passed,
            rules_failed: quality.rules_failed,
            blocking_failed: quality.blocking_failed.length,
          },
        });
      } finally {
        ods.release();
      }
      await store.putArtifact(project_id, 'data_profile', {
        ...report,
        markdown: renderProfileMarkdown(report),
      });
      for (const [i, insight] of report.key_insights.entries())
        await log(project_id, 'analytics_advisor', `insight:${i}`, insight);
      return { overall_score: report.overall_score, insights: report.key_insights.length };
    },

    /** The production-pipeline agent: runnable incremental-load templates (no model calls). */
    async generatePipeline({ project_id, prd }: WarehouseStageRequest): Promise<PipelineSummary> {
      const scripts = await store.getArtifact<ModelScripts>(project_id, 'model_scripts');
      const templates = generatePipelineTemplates({
        projectId: project_id,
        prd,
        source: await loadSourceSchema(store, warehouseRoot, project_id),
        layers: scripts?.layers ?? [],
      });
      await store.putArtifact(project_id, 'pipeline_templates', templates);
      await log(
        project_id,
        'production_pipeline',
        'templates',
        `${templates.files.length} files: ${templates.incremental.length} tables load incrementally, ${templates.full_reload.length} reload whole`,
        { files: templates.files.length },
      );
      return { files: templates.files.map((f) => f.path) };
    },
  });
}

function modelFailure(layer: string, table: string, statement: string, reason: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'ModelBuildFailed',
    nonRetryable: true,
    message: `${layer}.${table}: ${reason}`,
    details: [{ layer, table, statement, reason }],
  });
}

export type WarehouseActivities = ReturnType<typeof createWarehouseActivities>;
