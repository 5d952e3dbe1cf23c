/**
 * The run's OpenSearch nodes, shared by its test files instead of a JVM started in each. A test file
 * leases a node for its duration, alone (plat's lifecycle engine and ISM act on every index of the
 * cluster); on release the node is wiped back to what it held when it started
 * (test/harness/opensearch-wipe.ts) and waits for the next lease, which first checks that it still
 * holds just that. Nodes start when a lease finds none free (test/harness/opensearch-pool-starter.ts),
 * up to the pool's size (two, or jest's maxWorkers if fewer: see test/harness/global-setup.ts; a
 * lease waits while all are leased); global teardown stops them (test/harness/opensearch-pool-stop.ts).
 *
 * Test files run in several jest worker processes, so the pool lives in files under the run's
 * directory (test/harness/opensearch-pool-slots.ts). A lease whose holder process has ended, or
 * whose test file has (in the same worker), is taken over and its node wiped first. Pool nodes are
 * all started alike (no node attributes, the installed plugins); slot 0's node (the first started) is
 * a `privateDir` one (see test/harness/opensearch.ts), which serves any lease, and a `privateDir`
 * lease only such a node; the others run as they do from a checkout.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { releaseLease, takeOverLease, tryLease, type LeaseHolder } from './file-lease';
import { harness } from './harness-state';
import { openSearchCall } from './opensearch-call';
import { contentsDiff, nodeContents } from './opensearch-contents';
import {
  claimSlot,
  leaseFile,
  readNode,
  readSlots,
  recordEvent,
  retireSlot,
  slotPath,
  type Pool,
  type PoolNode,
  type Slot,
} from './opensearch-pool-slots';
import { startPoolNode } from './opensearch-pool-starter';
import { wipeNode } from './opensearch-wipe';
import { alive } from './process-groups';

/** A leased node: its URL, and the release that wipes it and hands it on (call it in afterAll). */
export interface LeasedOpenSearch {
  url: string;
  release(): Promise<void>;
}

const POLL_MS = 500;

/**
 * Leases a node of the run's pool for this test file, waiting while all are leased. `privateDir`:
 * a node started from a private (700) directory (test/harness/opensearch.ts).
 */
export async function leaseTestOpenSearch(opts: { privateDir?: boolean } = {}): Promise<LeasedOpenSearch> {
  const pool = harness().opensearchPool;
  if (!pool) throw new Error('the test harness has no OpenSearch pool: run the tests through `npm test`');
  const me: LeaseHolder = { pid: process.pid, token: randomUUID(), purpose: testFile() };
  held().add(me.token);
  const asked = Date.now();
  for (;;) {
    const waited = Date.now() - asked;
    const leased = await leaseOnce(pool, me, opts.privateDir ?? false, waited);
    if (leased) return leased;
    if (!waited) console.warn(`opensearch pool: all ${pool.size} nodes are leased; ${me.purpose} waits`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function leaseOnce(
  pool: Pool,
  me: LeaseHolder,
  wantPrivate: boolean,
  waited: number,
): Promise<LeasedOpenSearch | undefined> {
  const slots = readSlots(pool);
  const fits = (node?: PoolNode) => !!node?.fresh && (!wantPrivate || node.privateDir);
  // A started node that fits, free or left by a holder that has ended; a private node last, kept
  // for a lease that needs one.
  const fitting = slots.filter((s) => fits(s.node));
  for (const slot of [
    ...fitting.filter((s) => !s.node!.privateDir),
    ...fitting.filter((s) => s.node!.privateDir),
  ]) {
    const how = take(slot, me);
    if (!how) continue;
    slot.node = readNode(slot.dir); // as it is now that the slot is ours
    if (!fits(slot.node)) {
      releaseLease(leaseFile(slot.dir), me);
      continue;
    }
    if (await handOut(pool, slot, me, how)) {
      recordEvent(pool, { event: 'lease', slot: slot.index, by: me.purpose, ms: waited });
      return leased(pool, slot, me);
    }
  }
  // A slot not used yet: a node is started in it. Slot 0's (the first started) is private: it
  // serves any lease, and the lease that needs one need not replace another node.
  for (let index = 0; index < pool.size; index++)
    if (!slots.some((s) => s.index === index) && claimSlot(pool, index, me))
      return startNode(pool, index, me, wantPrivate || index === 0, waited);
  // A node that does not fit (a private one is wanted, or it never finished starting): replaced.
  for (const slot of slots.filter((s) => !fits(s.node))) {
    if (!take(slot, me)) continue;
    await retireSlot(pool, slot, wantPrivate ? 'replaced by a private node' : 'never started', me.purpose);
    if (claimSlot(pool, slot.index, me))
      return startNode(pool, slot.index, me, wantPrivate || slot.index === 0, waited);
  }
  return undefined;
}

/** Takes the slot's lease: free, or over from a holder that has ended. */
function take(slot: Slot, me: LeaseHolder): 'free' | 'taken over' | undefined {
  const file = leaseFile(slot.dir);
  if (!slot.holder) return tryLease(file, me) ? 'free' : undefined;
  if (!holderEnded(slot.holder)) return undefined;
  return takeOverLease(file, slot.holder, me) ? 'taken over' : undefined;
}

/**
 * Checks that the node holds what it held fresh (a node taken over is wiped first, and so is one
 * changed since its release, with a warning). A node that cannot be made fresh is retired: false.
 */
async function handOut(
  pool: Pool,
  slot: Slot,
  me: LeaseHolder,
  how: 'free' | 'taken over',
): Promise<boolean> {
  const { url, fresh } = slot.node as Required<PoolNode>;
  const call = openSearchCall(url);
  try {
    const diff = how === 'free' ? contentsDiff(await nodeContents(call), fresh) : [];
    if (diff.length)
      console.warn(
        `opensearch pool: node ${slot.index} changed after its release, wiping:\n${diff.join('\n')}`,
      );
    if (how === 'taken over' || diff.length) await wipeNode(call, fresh);
    return true;
  } catch (err) {
    await retireSlot(pool, slot, `not fresh: ${(err as Error).message}`, me.purpose);
    return false;
  }
}

async function startNode(
  pool: Pool,
  index: number,
  me: LeaseHolder,
  privateDir: boolean,
  waited: number,
): Promise<LeasedOpenSearch> {
  const slotDir = slotPath(pool, index);
  const started = Date.now();
  try {
    await startPoolNode(slotDir, privateDir);
  } catch (err) {
    await retireSlot(pool, { index, dir: slotDir }, 'failed to start', me.purpose);
    throw err;
  }
  recordEvent(pool, { event: 'start', slot: index, by: me.purpose, ms: Date.now() - started });
  recordEvent(pool, { event: 'lease', slot: index, by: me.purpose, ms: waited });
  return leased(pool, { index, dir: slotDir, node: readNode(slotDir) }, me);
}

function leased(pool: Pool, slot: Slot, me: LeaseHolder): LeasedOpenSearch {
  const { url, fresh } = slot.node as Required<PoolNode>;
  let released = false;
  return {
    url,
    async release() {
      if (released) return;
      released = true;
      try {
        await wipeNode(openSearchCall(url), fresh);
        releaseLease(leaseFile(slot.dir), me);
      } catch (err) {
        console.warn(`opensearch pool: retiring node ${slot.index}: ${(err as Error).message}`);
        await retireSlot(pool, slot, `wipe failed: ${(err as Error).message}`, me.purpose);
      } finally {
        held().delete(me.token);
      }
    },
  };
}

/** Ended: its process is gone, or it is this process and the test file that took it is over. */
function holderEnded(holder: LeaseHolder): boolean {
  return holder.pid === process.pid ? !held().has(holder.token) : !alive(holder.pid);
}

/**
 * The lease tokens this test file holds. On the test file's global object (jest gives each test file
 * its own), so a holding left by an earlier test file of the same worker process reads as ended.
 */
function held(): Set<string> {
  const key = Symbol.for('plat.opensearchPool.held');
  const g = globalThis as unknown as Record<symbol, Set<string>>;
  return (g[key] ??= new Set());
}

function testFile(): string {
  const state = (globalThis as { expect?: { getState(): { testPath?: string } } }).expect?.getState();
  return state?.testPath ? path.relative(repoRoot, state.testPath) : `pid ${process.pid}`;
}
