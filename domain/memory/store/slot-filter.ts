/** A memory filter as a predicate over index slots (the user is the partition), for the in-process indexes. */
import { SLOT_FLAGS, type SlotInfo, type SlotPredicate } from '../vector/vector-partition';
import type { MemoryFilter } from './memory-store';

export function slotFilter(f: MemoryFilter): SlotPredicate {
  // Bounds parsed once, not per slot: the predicate runs inside the scan.
  const from = f.created_from === undefined ? -Infinity : Date.parse(f.created_from);
  const to = f.created_to === undefined ? Infinity : Date.parse(f.created_to);
  // Validity (docs/memory-validity.md): current slots, or those holding at `valid_at`.
  const at = f.valid_at === undefined ? undefined : Date.parse(f.valid_at);
  const accept = (s: SlotInfo): boolean =>
    (f.include_earlier ||
      (at === undefined ? s.valid_to_ms === Infinity : s.valid_from_ms <= at && at < s.valid_to_ms)) &&
    (f.agent_id === undefined || s.agent_id === f.agent_id) &&
    (f.run_id === undefined || s.run_id === f.run_id) &&
    (!f.long_term || s.run_id === null) &&
    (f.run_id_from === undefined || (s.run_id !== null && s.run_id >= f.run_id_from)) &&
    s.created_ms >= from &&
    s.created_ms < to;
  // What the partition's flags per slot say (vector-partition.ts): necessary conditions of the
  // test above, and all of it when nothing else is asked.
  const now = !f.include_earlier && at === undefined;
  const all =
    (now ? SLOT_FLAGS.current : 0) |
    (f.long_term ? SLOT_FLAGS.longTerm : 0) |
    (f.run_id !== undefined || f.run_id_from !== undefined ? SLOT_FLAGS.shortTerm : 0);
  const exact =
    now &&
    f.agent_id === undefined &&
    f.run_id === undefined &&
    f.run_id_from === undefined &&
    from === -Infinity &&
    to === Infinity;
  return Object.assign(accept, { flags: { all, exact } });
}
