/**
 * The one-snapshot rule applied to a finished copy (docs/fleet.md#one-snapshot-rule): pieces read in
 * one snapshot are one point in time; pieces read in several are one point in time only when the
 * source's write position did not move from the first snapshot's start to the last's.
 */
import type { OdsSnapshotSummary } from '../../shared/project-model';
import type { SnapshotRef } from './source-position';

/** The verdict over every piece copied (a table, or one key range of a table). */
export function snapshotVerdict(pieces: { snapshot?: SnapshotRef }[]): OdsSnapshotSummary {
  const refs = pieces.map((p) => p.snapshot);
  const ids = new Set(refs.map((r) => r?.id ?? 'unrecorded'));
  const seen = refs.flatMap((r) => (r ? [r.position.before, r.position.after] : [null]));
  const known = seen.filter((p): p is string => p !== null);
  const positions = [...new Set(known)];
  const shown = positions.length > 2 ? [positions[0], positions[positions.length - 1]] : positions;
  if (ids.size <= 1 && !ids.has('unrecorded'))
    return { consistency: 'one_snapshot', snapshots: ids.size, positions: shown };
  if (known.length < seen.length) return { consistency: 'unknown', snapshots: ids.size, positions: shown };
  return {
    consistency: positions.length === 1 ? 'unchanged' : 'changed',
    snapshots: ids.size,
    positions: shown,
  };
}

/** What a user should know about a verdict, when it is not one point in time for sure. */
export function snapshotWarning(v: OdsSnapshotSummary): string | undefined {
  if (v.consistency === 'changed')
    return `read in ${v.snapshots} snapshots while the source server committed writes (${v.positions.join(' … ')}): each part is consistent on its own; tables may differ by those writes, and a key changed in between can move a row between two key ranges of one table`;
  if (v.consistency === 'unknown')
    return `read in ${v.snapshots} snapshots and the source's write position cannot be read (no binary log, or no privilege to see it): whether it changed in between is unknown`;
  return undefined;
}
