/**
 * `plat memory digest|sync|consolidate [--wait]`: runs a memory pipeline now by triggering its
 * Temporal Schedule (as the Web UI's "Trigger" or `temporal schedule trigger` would), and with
 * --wait prints what the run did.
 */
import { triggerSchedule } from './schedule-trigger';

const PIPELINES: Record<string, string> = {
  digest: 'memory-digest',
  sync: 'memory-sync',
  consolidate: 'memory-consolidation',
};

/** The pipelines `plat memory` runs now: digest, sync, consolidate. */
export const PIPELINE_COMMANDS = Object.keys(PIPELINES);

export function triggerPipeline(sub: string, wait: boolean): Promise<{ data: unknown; text: string }> {
  return triggerSchedule(PIPELINES[sub], wait);
}
