/** Every activity the platform worker registers, wired to their dependencies. */
import { createAnalysisActivities } from './analysis/analysis-activities';
import { createWarehouseActivities } from './analysis/warehouse-activities';
import { warehouseEngine, type WarehouseSettings } from './warehouse/engine-factory';
import type { WarehouseEngine } from './warehouse/warehouse-engine';
import {
  createMemoryPipelineActivities,
  type MemoryPipelineDeps,
} from './memory-pipelines/memory-pipeline-activities';
import { MemoryClient } from './memory-pipelines/memory-client';
import { PipelineState } from './memory-pipelines/pipeline-state';
import { loadWorkspaces } from './memory/workspaces/workspace-config';
import { ProjectStore } from './analysis/project-store';
import * as pingActivities from './health/ping-activities';
import { createCostReportActivities, type CostGauges } from './cost/cost-report-activities';
import { LocalParameterStore } from './secrets/local-parameter-store';
import type { ParameterStore } from './secrets/parameter-store';
import type { LlmSettings } from './agents/llm-settings';
import type { PlatConfig } from '../shared/config';
import type { ProjectEvent } from '../shared/project-model';
import { metadataDbPath, openMetadataDb } from './store/metadata-db';
import * as path from 'node:path';

export interface ActivityDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  llm?: LlmSettings;
  warehouseRoot: string;
  /** The warehouse engine of the modeling and later stages (embedded: DuckDB over Parquet). */
  engine: WarehouseEngine;
  /** Base URL of the gateway as users reach it. */
  publicUrl: string;
  onStoredEvents?: (events: ProjectEvent[]) => void;
  /** The memory pipelines' workspaces, memory-service client and state. */
  memoryPipelines: MemoryPipelineDeps;
  /** Where the cost reporter publishes per-project costs (the worker's metrics). */
  gauges?: CostGauges;
}

/** The real dependencies of a data directory: its metadata database and local parameter store. */
export function dataDirDeps(
  dataDir: string,
  opts: {
    secretKey?: string;
    llm?: LlmSettings;
    publicUrl?: string;
    warehouse?: WarehouseSettings;
    /** The memory pipelines: PLAT_MEMORY_WORKSPACES and where the memory service answers. */
    memory?: { workspaces?: string; url?: string; apiKey?: string };
  } = {},
): ActivityDeps {
  const warehouseRoot = path.join(dataDir, 'warehouse');
  const db = openMetadataDb(metadataDbPath(dataDir));
  return {
    store: new ProjectStore(db),
    memoryPipelines: {
      workspaces: loadWorkspaces(opts.memory?.workspaces, dataDir),
      memory: new MemoryClient(opts.memory?.url ?? 'http://127.0.0.1:8230', opts.memory?.apiKey),
      state: new PipelineState(db),
    },
    secrets: new LocalParameterStore(path.join(dataDir, 'secrets'), opts.secretKey),
    llm: opts.llm,
    warehouseRoot,
    engine: warehouseEngine(opts.warehouse, warehouseRoot),
    publicUrl: opts.publicUrl ?? 'http://localhost:8080',
  };
}

/** The gateway's address as users reach it. */
export function publicUrl(config: Pick<PlatConfig, 'PLAT_PUBLIC_URL' | 'PLAT_GATEWAY_PORT'>): string {
  return config.PLAT_PUBLIC_URL ?? `http://localhost:${config.PLAT_GATEWAY_PORT}`;
}

/** Where the pipelines and the CLI reach the memory service. */
export function memoryUrl(
  config: Pick<PlatConfig, 'PLAT_MEMORY_URL' | 'PLAT_MEMORY_HOST' | 'PLAT_MEMORY_PORT'>,
): string {
  if (config.PLAT_MEMORY_URL) return config.PLAT_MEMORY_URL.replace(/\/$/, '');
  const host = ['0.0.0.0', '::'].includes(config.PLAT_MEMORY_HOST) ? '127.0.0.1' : config.PLAT_MEMORY_HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PLAT_MEMORY_PORT}`;
}

/** Claude settings from the configuration, or undefined for the offline analysts. */
export function llmSettings(
  config: Pick<
    PlatConfig,
    | 'PLAT_LLM_PROVIDER'
    | 'ANTHROPIC_API_KEY'
    | 'ANTHROPIC_BASE_URL'
    | 'AWS_REGION'
    | 'PLAT_BEDROCK_BASE_URL'
    | 'PLAT_MODEL_LARGE'
    | 'PLAT_MODEL_MEDIUM'
    | 'PLAT_MODEL_SMALL'
  >,
): LlmSettings | undefined {
  const models = {
    large: config.PLAT_MODEL_LARGE,
    medium: config.PLAT_MODEL_MEDIUM,
    small: config.PLAT_MODEL_SMALL,
  };
  if (config.PLAT_LLM_PROVIDER === 'bedrock') {
    if (!config.AWS_REGION)
      throw new Error('PLAT_LLM_PROVIDER=bedrock needs AWS_REGION (and AWS credentials)');
    return { provider: 'bedrock', region: config.AWS_REGION, baseURL: config.PLAT_BEDROCK_BASE_URL, models };
  }
  if (config.PLAT_LLM_PROVIDER === 'offline' || !config.ANTHROPIC_API_KEY) return undefined;
  return {
    provider: 'anthropic',
    apiKey: config.ANTHROPIC_API_KEY,
    baseURL: config.ANTHROPIC_BASE_URL,
    models,
  };
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...pingActivities,
    ...createAnalysisActivities(deps),
    ...createWarehouseActivities(deps),
    ...createCostReportActivities(deps),
    ...createMemoryPipelineActivities(deps.memoryPipelines),
  };
}
