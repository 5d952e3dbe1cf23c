/**
 * The reports the warehouse stages keep per project, one read-only route each:
 * scripts (data modeling), quality and catalog (data governance), metrics (query building),
 * dashboards (visualization), profile (analytics advisor), pipeline (production templates).
 */
import type { Router } from 'express';
import type { ProjectStore } from '../../activities/analysis/project-store';
import type { PhaseName } from '../../shared/project-model';
import type { ArtifactKind } from '../../shared/warehouse-model';
import { HttpError } from '../http-errors';
import type { ProjectService } from './project-service';

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

/** Adds `GET /:id/<report>` for every report to a project router. */
export function addArtifactRoutes(r: Router, service: ProjectService, store: ProjectStore): void {
  for (const { path, kind, phase } of ARTIFACT_ROUTES) {
    r.get(`/:id/${path}`, (req, res) => {
      const view = service.get(req.user!, req.params.id);
      const content = store.getArtifact(view.project_id, kind);
      if (content === undefined) {
        throw new HttpError(
          404,
          'not_built',
          `the ${path} of ${view.project_id} does not exist yet: its ${phase} stage is ${view.phases[phase]}`,
        );
      }
      res.json({ project_id: view.project_id, ...(content as object) });
    });
  }
}
