/**
 * The reports the warehouse stages keep per project, one read-only route each:
 * scripts (data modeling), quality and catalog (data governance), metrics (query building),
 * dashboards (visualization), profile (analytics advisor), pipeline (production templates).
 */
import type { PhaseName } from '../../shared/project-model';
import type { ArtifactKind } from '../../shared/warehouse-model';

/** Every report route: path segment, stored kind, the stage that writes it, and what it holds. */
export const ARTIFACT_ROUTES: { path: string; kind: ArtifactKind; phase: PhaseName; summary: string }[] = [
  {
    path: 'scripts',
    kind: 'model_scripts',
    phase: 'data_modeling',
    summary: "Data-modeling SQL: per layer (dwd, dws, ads) the script and each table's SELECT",
  },
  {
    path: 'quality',
    kind: 'quality_report',
    phase: 'data_governance',
    summary: 'Quality report: every PRD rule with status, violation count, sample rows and its SQL',
  },
  {
    path: 'catalog',
    kind: 'catalog',
    phase: 'data_governance',
    summary: 'Catalog: every table with schema, layer, row count, location and lineage',
  },
  {
    path: 'metrics',
    kind: 'metric_validation',
    phase: 'query_building',
    summary: 'Metric validation: each ADS metric SQL, valid or not and why',
  },
  {
    path: 'dashboards',
    kind: 'dashboards',
    phase: 'visualization',
    summary: 'Datasets and dashboards rendered at bi_dashboard_url',
  },
  {
    path: 'profile',
    kind: 'data_profile',
    phase: 'analytics_advisor',
    summary: 'Data-profile report: score, six dimensions, insights, tables, relations, suggestions',
  },
  {
    path: 'pipeline',
    kind: 'pipeline_templates',
    phase: 'production_pipeline',
    summary: 'Production pipeline templates: incremental-load workflow, schedule and SQL',
  },
];
