/**
 * Placing a project on a host (docs/fleet.md#project-files): the ingestion queue's worker that
 * claims a project names its own host, and the workflow then sends every stage that touches the
 * project's files to that host's queue. When the host's queue stops answering, `hostAlive` tells a
 * busy host from a lost one.
 */
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import { ApplicationFailure } from '@temporalio/activity';
import { HOST_BEAT_MS, type WorkerHostRegistry } from '../../domain/fleet/worker-host-registry';
import type { WarehouseEngine } from '../../domain/warehouse/warehouse-engine';

/** This worker's host: its id, the registry of live hosts, and when a silent host counts as lost. */
export interface HostDeps {
  id: string;
  registry: WorkerHostRegistry;
  /** PLAT_HOST_LOST_AFTER_SECONDS in ms: a host unseen for this long has lost its projects. */
  lostAfterMs: number;
}

export interface ProjectHost {
  host_id: string;
  /** How long a task may wait on the host's queue before the workflow asks whether it is alive. */
  lost_after_ms: number;
  /**
   * The stages after the copy read nothing from the host's disk (Athena: the ODS is published to S3
   * and Glue), so they run on the shared warehouse queue, on any worker.
   */
  stages_anywhere?: boolean;
}

export interface ClaimHostRequest {
  project_id: string;
  /** A project whose ODS this one reuses: its host, when alive, holds the files to reuse. */
  reuse_from?: string;
  /** A host already found lost for this project: never claimed again. */
  lost?: string[];
}

export function createHostActivities({
  host,
  store,
  engine,
}: {
  host: HostDeps;
  store: ProjectStore;
  engine: Pick<WarehouseEngine, 'kind'>;
}) {
  return {
    /**
     * The host that will hold the project's files: the reused project's when it is alive; else the
     * live host running the fewest projects, this worker's own on a tie (Temporal hands the claim to
     * whichever ingestion worker polls first, which alone would not spread the load).
     */
    async claimProjectHost(req: ClaimHostRequest): Promise<ProjectHost> {
      const claim = (host_id: string): ProjectHost => ({
        host_id,
        lost_after_ms: host.lostAfterMs,
        ...(engine.kind === 'athena' ? { stages_anywhere: true } : {}),
      });
      const lost = new Set(req.lost ?? []);
      // Fresh stamps only (three beats), not draining: a host that just died is no place for a project.
      const candidates = (await host.registry.liveHosts(Math.min(host.lostAfterMs, 3 * HOST_BEAT_MS)))
        .filter(
          (h) => !lost.has(h.host_id) && h.workloads.some((w) => w === 'ingestion' || w === 'warehouse'),
        )
        .map((h) => h.host_id)
        .sort();
      if (req.reuse_from) {
        const from = (await store.getProject(req.reuse_from))?.warehouse?.host;
        if (from && candidates.includes(from)) return claim(from);
      }
      if (lost.has(host.id) && candidates.length === 0)
        // Retried (the claim's retry policy has no limit): the project waits for a host to appear.
        throw ApplicationFailure.retryable('no live host to place the project on', 'NoLiveHost');
      const load = await store.runningProjectsByHost();
      let best = lost.has(host.id) ? candidates[0] : host.id;
      for (const candidate of candidates)
        if ((load.get(candidate) ?? 0) < (load.get(best) ?? 0)) best = candidate;
      return claim(best);
    },

    /** Whether the host was seen within `within_ms` (a busy host still is; a dead one is not). */
    async hostAlive(req: { host_id: string; within_ms: number }): Promise<boolean> {
      return host.registry.alive(req.host_id, req.within_ms);
    },
  };
}

export type HostActivities = ReturnType<typeof createHostActivities>;
