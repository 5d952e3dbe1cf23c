/**
 * What the warehouse stages' activities need (docs/architecture.md#the-stage-table): the project
 * store, the warehouse files and engine, the gateway's public URL and, optionally, Claude.
 */
import type { Prd } from '../../../shared/prd-schema';
import type { LlmSettings } from '../../../domain/llm/llm-settings';
import type { ProjectStore } from '../../../domain/metadata-store/project-store';
import type { LayerTableSpec, WarehouseEngine } from '../../../domain/warehouse/warehouse-engine';

export interface WarehouseActivityDeps {
  store: ProjectStore;
  warehouseRoot: string;
  engine: WarehouseEngine;
  /** Base URL of the gateway as users reach it (for bi_dashboard_url). */
  publicUrl: string;
  /** Claude settings; when set, a failing modeling statement is repaired by the model. */
  llm?: LlmSettings;
}

export interface WarehouseStageRequest {
  project_id: string;
  prd: Prd;
}

/** The stored modeling scripts: per layer the whole script and each table's SELECT. */
export interface ModelScripts {
  layers: { layer: string; database: string; script: string; tables: LayerTableSpec[] }[];
}
