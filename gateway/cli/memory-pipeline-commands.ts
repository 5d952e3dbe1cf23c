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

export function isPipelineCommand(sub: string): boolean {
  return sub in PIPELINES;
}

export function triggerPipeline(sub: string, wait: boolean): Promise<{ data: unknown; text: string }> {
  return triggerSchedule(PIPELINES[sub], wait);
}
