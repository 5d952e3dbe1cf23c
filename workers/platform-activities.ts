/**
 * The platform worker's composition root: every activity it registers, wired to their dependencies
 * (docs/architecture.md#which-process-loads-what).
 */
import {
  AGENT_STAGE_ACTIVITIES,
  ANYWHERE_WITH_ATHENA,
  HOST_STAGE_ACTIVITIES,
} from '../shared/analysis-stages';
import { createAnalysisActivities } from '../activities/analysis/analysis-activities';
import { createOdsPartActivities } from '../activities/analysis/ods-part-activities';
import { warmAgentRunner } from '../activities/analysis/agent-runner-warmup';
import { createWarehouseActivities } from '../activities/analysis/warehouse-activities';
import { createRefreshActivities } from '../activities/analysis/refresh-activities';
import { warehouseEngine, type WarehouseSettings } from '../domain/warehouse/engine-factory';
import type { WarehouseEngine } from '../domain/warehouse/warehouse-engine';
import {
  createMemoryPipelineActivities,
  type MemoryPipelineDeps,
} from '../activities/memory-pipelines/memory-pipeline-activities';
import { MemoryClient } from '../activities/memory-pipelines/memory-client';
import { PipelineState } from '../activities/memory-pipelines/pipeline-state';
import { loadWorkspaces } from '../domain/memory/workspaces/workspace-config';
import { ProjectStore } from '../domain/metadata-store/project-store';
import * as pingActivities from '../activities/health/ping-activities';
import { createCostReportActivities, type CostGauges } from '../activities/cost/cost-report-activities';
import { createRetentionActivities } from '../activities/retention/retention-activities';
import type { LocalRetentionScope } from '../domain/retention/local-retention';
import { warehouseS3Retention, type WarehouseS3Retention } from '../domain/retention/warehouse-s3-retention';
import type { ParameterStore } from '../domain/secrets/parameter-store';
import { SourcePolicy } from '../domain/sources/source-policy';
import type { LlmSettings } from '../domain/llm/llm-settings';
import type { ProjectEvent } from '../shared/project-model';
import { metadataLocation, openMetadataDb } from '../domain/metadata-store/metadata-db';
import { openParameterStore } from '../domain/secrets/open-parameter-store';
import { createLifecycleActivities } from '../activities/search-ops/lifecycle-activities';
import { configuredOpenSearch, type OpenSearchSettings } from '../domain/search-ops/cluster-connection';
import type { OpenSearchClient } from '../domain/search-ops/opensearch-client';
import { LogShipper } from '../domain/search-ops/plat-logs/log-shipper';
import { AGENT_LOGS, ensurePlatLogIndices } from '../domain/search-ops/plat-logs/plat-log-indices';
import * as path from 'node:path';
import type { ActivityFunction } from './activity-metrics';
import { createHostActivities, type HostDeps } from '../activities/fleet/host-activities';
import { createWarehouseQueryActivities } from '../activities/fleet/warehouse-query-activities';
import { hostId } from '../domain/fleet/host-identity';
import { WorkerHostRegistry } from '../domain/fleet/worker-host-registry';
import type { WorkerQueue } from '../shared/task-queues';

export interface ActivityDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  /** The source policy every connection to a project's source passes (docs/security.md#sources). */
  sources: SourcePolicy;
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
  /** The OpenSearch cluster whose indices the lifecycle engine manages (OPENSEARCH_URL). */
  search?: OpenSearchClient;
  /** Agent logs to OpenSearch, beside the metadata store, when OPENSEARCH_URL is set. */
  agentLogs?: LogShipper;
  /** What the retention pass may remove: log files, agent-log rows, ODS files. */
  retention: LocalRetentionScope;
  /** The Athena warehouse's buckets, whose lifecycle rules the retention pass keeps. */
  retentionS3?: WarehouseS3Retention;
  /** This data directory's host: its id, queue and the registry of live hosts (docs/fleet.md#project-files). */
  host: HostDeps;
  /** PLAT_INGEST_PART_ROWS: about how many rows one copy part holds (docs/fleet.md#ingestion-in-parts). */
  partRows?: number;
  /** PLAT_INGEST_MAX_ROWS_PER_SECOND: the most rows per second one copy reads (0 or unset: no cap). */
  maxRowsPerSecond?: number;
}

/** The real dependencies of a data directory: its metadata database and local parameter store. */
export async function dataDirDeps(
  dataDir: string,
  opts: {
    secretKey?: string;
    /** PLAT_SECRET_KEY_PREVIOUS: opens values sealed under the key being replaced. */
    previousSecretKey?: string;
    /** PLAT_METADATA_URL: the shared metadata store (unset: the data directory's file). */
    metadataUrl?: string;
    llm?: LlmSettings;
    publicUrl?: string;
    warehouse?: WarehouseSettings;
    /** The memory pipelines: PLAT_MEMORY_WORKSPACES and where the memory service answers. */
    memory?: { workspaces?: string; url?: string; apiKey?: string };
    /** OPENSEARCH_URL and its sign-in: the cluster of the index lifecycle engine. */
    opensearch?: OpenSearchSettings;
    /** PLAT_HOST_LOST_AFTER_SECONDS in ms (default 2 minutes). */
    hostLostAfterMs?: number;
    /** PLAT_INGEST_PART_ROWS (default 1,000,000). */
    partRows?: number;
    /** PLAT_INGEST_MAX_ROWS_PER_SECOND (0 or unset: no cap). */
    maxRowsPerSecond?: number;
    /** The configuration's source policy (unset: the built-in denials only, without plat's services). */
    sources?: SourcePolicy;
  } = {},
): Promise<ActivityDeps> {
  const warehouseRoot = path.join(dataDir, 'warehouse');
  const db = await openMetadataDb(metadataLocation(dataDir, opts.metadataUrl));
  const secrets = await openParameterStore(db, dataDir, opts.secretKey, opts.previousSecretKey);
  return {
    store: new ProjectStore(db),
    memoryPipelines: {
      workspaces: loadWorkspaces(opts.memory?.workspaces, dataDir),
      memory: new MemoryClient(opts.memory?.url ?? 'http://127.0.0.1:8230', opts.memory?.apiKey),
      state: new PipelineState(db),
    },
    secrets,
    sources: opts.sources ?? new SourcePolicy(),
    llm: opts.llm,
    warehouseRoot,
    engine: warehouseEngine(opts.warehouse, warehouseRoot),
    retention: { logDir: path.join(dataDir, 'logs'), warehouseRoot, db, secrets },
    retentionS3: warehouseS3Retention(opts.warehouse),
    publicUrl: opts.publicUrl ?? 'http://localhost:8080',
    partRows: opts.partRows,
    maxRowsPerSecond: opts.maxRowsPerSecond,
    host: {
      id: hostId(dataDir),
      registry: new WorkerHostRegistry(db),
      lostAfterMs: opts.hostLostAfterMs ?? 120_000,
    },
    ...searchDeps(opts.opensearch ?? {}),
  };
}

/** The cluster, and the shipper of agent logs to its `plat-agent-logs` alias. */
function searchDeps(settings: OpenSearchSettings): Pick<ActivityDeps, 'search' | 'agentLogs'> {
  const search = configuredOpenSearch(settings);
  if (!search) return {};
  const agentLogs = new LogShipper(search, AGENT_LOGS, {
    ensure: () => ensurePlatLogIndices(search),
    onError: (err) =>
      console.warn(`agent logs not shipped to OpenSearch yet (kept, retrying): ${String(err)}`),
  });
  return { search, agentLogs };
}

/** Every activity of the worker, grouped by the function the metrics name it by. */
export function createActivityGroups(deps: ActivityDeps) {
  return {
    'agent-runner': {
      ...createAnalysisActivities(deps),
      ...createOdsPartActivities(deps),
      ...createWarehouseActivities(deps),
      ...createRefreshActivities(deps),
      warmAgentRunner,
    },
    'memory-pipelines': createMemoryPipelineActivities(deps.memoryPipelines),
    'search-lifecycle': createLifecycleActivities(deps),
    'cost-reporter': createCostReportActivities(deps),
    retention: createRetentionActivities(deps),
    fleet: { ...createHostActivities(deps), ...createWarehouseQueryActivities(deps) },
    health: { ...pingActivities },
  } satisfies Record<ActivityFunction, object>;
}

export type ActivityGroups = ReturnType<typeof createActivityGroups>;

export function createActivities(deps: ActivityDeps) {
  return allActivities(createActivityGroups(deps));
}

/** One registration map of every group's activities. */
export function allActivities(groups: ActivityGroups) {
  return {
    ...groups.health,
    ...groups['agent-runner'],
    ...groups['cost-reporter'],
    ...groups['memory-pipelines'],
    ...groups['search-lifecycle'],
    ...groups.retention,
    ...groups.fleet,
  };
}

/**
 * The activities each queue's worker registers. The workflows queue registers every activity: the
 * bookkeeping ones run there, and projects started before the queues were split run all theirs there.
 */
export function activitiesByQueue(groups: ActivityGroups): Record<WorkerQueue, object> {
  const runner = groups['agent-runner'];
  // Each stage's activities where the stage table puts them (a name the runner lacks fails to compile).
  const fileBound = pick(runner, ...HOST_STAGE_ACTIVITIES);
  return {
    workflows: allActivities(groups),
    agents: { ...pick(runner, ...AGENT_STAGE_ACTIVITIES), warmAgentRunner: runner.warmAgentRunner },
    ingestion: { claimProjectHost: groups.fleet.claimProjectHost },
    operations: {
      ...groups['memory-pipelines'],
      ...groups['search-lifecycle'],
      ...groups['cost-reporter'],
      ...groups.retention,
      ...groups.health,
    },
    // (The host queue keeps /query for query workflows started before `queries` existed.)
    host: {
      ...fileBound,
      refreshProjectOds: runner.refreshProjectOds,
      rebuildProjectWarehouse: runner.rebuildProjectWarehouse,
      queryProjectWarehouse: groups.fleet.queryProjectWarehouse,
      applyHostRetention: groups.retention.applyHostRetention,
    },
    queries: { queryProjectWarehouse: groups.fleet.queryProjectWarehouse },
    // With Athena the stages after the copy run anywhere (docs/fleet.md#athena-stages-anywhere).
    warehouse: {
      ...pick(runner, ...ANYWHERE_WITH_ATHENA),
      rebuildProjectWarehouse: runner.rebuildProjectWarehouse,
    },
  };
}

/** `obj`'s named keys only. */
function pick<T extends object, K extends keyof T>(obj: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, obj[k]])) as Pick<T, K>;
}

/** The function each activity type belongs to. */
export function activityFunctions(groups: ActivityGroups): Record<string, ActivityFunction> {
  const functions: Record<string, ActivityFunction> = {};
  for (const [fn, activities] of Object.entries(groups)) {
    for (const name of Object.keys(activities)) functions[name] = fn as ActivityFunction;
  }
  return functions;
}
