/**
 * `plat_refresh_stale_projects`, read at each scrape of the gateway's /metrics: how many projects
 * that refresh on a schedule are stale (their last refresh failed, or they fell behind the schedule;
 * docs/refresh.md#freshness). Every gateway of a fleet reads the same store, so the alarm takes the
 * maximum over them (docs/monitoring.md#alarms).
 */
import { Gauge, type Registry } from 'prom-client';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import { freshnessOf } from '../../shared/refresh-model';

export function registerRefreshStaleness(registry: Registry, store: ProjectStore): void {
  new Gauge({
    name: 'plat_refresh_stale_projects',
    help: 'Projects refreshing on a schedule whose last refresh failed or that fell behind it',
    registers: [registry],
    async collect() {
      const now = new Date();
      // A store that does not answer keeps the last count: /metrics itself must not fail.
      const projects = await store.scheduledProjects().catch(() => undefined);
      if (projects) this.set(projects.filter((v) => freshnessOf(v, now)?.stale).length);
    },
  });
}
