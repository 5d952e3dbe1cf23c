/** The memory service's own Prometheus metrics, beside the process's (gateway/metrics.ts). */
import { Counter, type Registry } from 'prom-client';
import type { MemoryService } from '../../domain/memory/memory-service';

/**
 * `plat_memory_feed_gaps_total`: how often this instance found the change feed pruned past its
 * cursor and reloaded its users from their rows (docs/fleet.md#memory). Read from the service
 * at each scrape.
 */
export function countFeedGaps(registry: Registry, service: Pick<MemoryService, 'feedGaps'>): void {
  new Counter({
    name: 'plat_memory_feed_gaps_total',
    help: 'Change-feed gaps (changes pruned before this instance read them) after which it reloaded its users',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(service.feedGaps);
    },
  });
}
