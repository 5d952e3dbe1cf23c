/**
 * The OpenSearch pool's directory (test/harness/opensearch-pool.ts), shared by the run's processes:
 * `slot-<n>/lease` names the holder (test/harness/file-lease.ts), `slot-<n>/node.json` the node;
 * `events.jsonl` logs starts, leases and retirements. A slot is claimed by renaming a directory that
 * already holds the claimer's lease into place, and retired by renaming it away, both atomic.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { leaseHolder, type LeaseHolder } from './file-lease';
import type { HarnessState } from './harness-state';
import type { NodeContents } from './opensearch-contents';
import { stopGroup } from './process-groups';
import { processesMentioning } from './process-lookup';

/** The pool's directory and its size (the most nodes it runs). */
export type Pool = NonNullable<HarnessState['opensearchPool']>;

/** A pool node as `node.json` records it; `url` and `fresh` once it has started. */
export interface PoolNode {
  /** Its directory (test/harness/opensearch.ts), which every process of the node mentions. */
  dir: string;
  privateDir: boolean;
  url?: string;
  /** What it held just after it started. */
  fresh?: NodeContents;
}

/** A slot as read at one moment: its node and lease may have changed since. */
export interface Slot {
  index: number;
  dir: string;
  node?: PoolNode;
  holder?: LeaseHolder;
}

/** A line of `events.jsonl`. */
export interface PoolEvent {
  event: 'start' | 'lease' | 'retire';
  slot: number;
  by?: string;
  /** start: how long the node took to start; lease: how long the lease waited for a free node. */
  ms?: number;
  why?: string;
}

/** The lease file of a slot directory. */
export const leaseFile = (slotDir: string) => path.join(slotDir, 'lease');

/** The directory of slot `index`. */
export const slotPath = (pool: Pool, index: number) => path.join(pool.dir, `slot-${index}`);

/** The pool's slots in use. */
export function readSlots(pool: Pool): Slot[] {
  return fs.readdirSync(pool.dir).flatMap((entry) => {
    const m = /^slot-(\d+)$/.exec(entry);
    if (!m) return [];
    const dir = path.join(pool.dir, entry);
    return [{ index: Number(m[1]), dir, node: readNode(dir), holder: leaseHolder(leaseFile(dir)) }];
  });
}

/** The node a slot directory records, if any. */
export function readNode(slotDir: string): PoolNode | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(slotDir, 'node.json'), 'utf8')) as PoolNode;
  } catch {
    return undefined;
  }
}

/** Records the slot's node, replacing the file whole so a reader never sees half of it. */
export function writeNode(slotDir: string, node: PoolNode): void {
  const file = path.join(slotDir, 'node.json');
  const tmp = `${file}.${randomUUID()}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(node));
  fs.renameSync(tmp, file);
}

/** Claims the unused slot `index` with `holder`'s lease already in it: false when another process did. */
export function claimSlot(pool: Pool, index: number, holder: LeaseHolder): boolean {
  const tmp = path.join(pool.dir, `.claim-${randomUUID()}`);
  fs.mkdirSync(tmp);
  fs.writeFileSync(leaseFile(tmp), JSON.stringify(holder));
  try {
    fs.renameSync(tmp, slotPath(pool, index));
    return true;
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true });
    return false;
  }
}

/** Takes a slot its caller holds out of the pool (its index is free at once), and stops its node. */
export async function retireSlot(pool: Pool, slot: Slot, why: string, by?: string): Promise<void> {
  const away = path.join(pool.dir, `retired-${randomUUID()}`);
  fs.renameSync(slot.dir, away);
  recordEvent(pool, { event: 'retire', slot: slot.index, why, by });
  await stopNodeIn(away);
  fs.rmSync(away, { recursive: true, force: true });
}

/** Stops the node a slot directory records, found by its directory (it may not have finished starting). */
export async function stopNodeIn(slotDir: string): Promise<void> {
  const node = readNode(slotDir);
  if (!node) return;
  await Promise.all(processesMentioning(`${node.dir}/`).map((p) => stopGroup(p.pid)));
  fs.rmSync(node.dir, { recursive: true, force: true });
}

/** Appends to `events.jsonl` (one short line: appends do not interleave). */
export function recordEvent(pool: Pool, event: PoolEvent): void {
  const line = JSON.stringify({ ...event, pid: process.pid, at: new Date().toISOString() });
  fs.appendFileSync(path.join(pool.dir, 'events.jsonl'), `${line}\n`);
}

/** The pool's events so far. */
export function readEvents(poolDir: string): PoolEvent[] {
  const file = path.join(poolDir, 'events.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as PoolEvent);
}
