/** Global teardown's part of the OpenSearch pool (test/harness/opensearch-pool.ts): stop its nodes, sum up. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readEvents, stopNodeIn } from './opensearch-pool-slots';

/**
 * Stops every node of the pool in `dir`, also those of a run killed before its teardown; returns a
 * line on what the pool did, or undefined when it started no node.
 */
export async function stopOpenSearchPool(dir: string | undefined): Promise<string | undefined> {
  if (!dir || !fs.existsSync(dir)) return undefined;
  const slots = fs.readdirSync(dir).filter((e) => /^(slot|retired)-/.test(e));
  await Promise.all(slots.map((e) => stopNodeIn(path.join(dir, e))));
  const events = readEvents(dir);
  const of = (kind: string) => events.filter((e) => e.event === kind);
  const starts = of('start');
  if (!starts.length) return undefined;
  const waits = of('lease').filter((e) => (e.ms ?? 0) > 0);
  const seconds = (ms = 0) => `${Math.round(ms / 1000)} s`;
  return [
    `OpenSearch pool: ${starts.length} node(s) started (${starts.map((e) => seconds(e.ms)).join(', ')})`,
    `${of('lease').length} lease(s)`,
    `${waits.length} waited for a node${waits.length ? ` (longest ${seconds(Math.max(...waits.map((e) => e.ms!)))})` : ''}`,
    `${of('retire').length} retired${
      of('retire').length
        ? `: ${of('retire')
            .map((e) => e.why)
            .join('; ')}`
        : ''
    }`,
  ].join(', ');
}
