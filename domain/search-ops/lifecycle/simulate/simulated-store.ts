/**
 * plat's lifecycle store in memory, for the simulator (docs/search-lifecycle.md#simulating-a-policy):
 * the managed-index records with their versions, the claim watermark, and the one policy. It applies
 * a pass's writes as the cluster store does; nobody else writes, so none conflicts.
 */
import type { IsmPolicy } from '../../ism-policy';
import type { ManagedWrite, StoredManagedIndex, StoredPolicy } from '../lifecycle-store';
import type { ManagedIndex } from '../managed-index';

export class SimulatedStore {
  private readonly records = new Map<string, StoredManagedIndex>();
  claimedUntil?: number;
  readonly policies: StoredPolicy[];
  /** Indices whose record was written since `drainWritten()`. */
  private written = new Set<string>();

  constructor(policyId: string, policy: IsmPolicy, deployedAt: number) {
    // Stored as plat's store stamps a policy, its ism_template dated at the deployment.
    const templates = policy.ism_template;
    const stamp = <T extends object>(t: T) => ({ ...t, last_updated_time: deployedAt });
    this.policies = [
      {
        _id: policyId,
        _version: 1,
        _seq_no: 0,
        _primary_term: 1,
        policy: {
          ...policy,
          policy_id: policyId,
          last_updated_time: deployedAt,
          schema_version: 1,
          ...(templates
            ? { ism_template: Array.isArray(templates) ? templates.map(stamp) : stamp(templates) }
            : {}),
        },
      },
    ];
  }

  /** Every record, for a pass. */
  managed(): StoredManagedIndex[] {
    return [...this.records.values()];
  }

  get(index: string): ManagedIndex | undefined {
    return this.records.get(index)?.record;
  }

  async write(writes: ManagedWrite[]): Promise<{ index: string; reason: string }[]> {
    for (const w of writes) {
      if (w.op === 'claimed_until') this.claimedUntil = w.time;
      else if (w.op === 'remove') {
        this.records.delete(w.index);
        this.written.add(w.index);
      } else {
        const seq = (this.records.get(w.record.index)?.seq_no ?? -1) + 1;
        this.records.set(w.record.index, { record: w.record, seq_no: seq, primary_term: 1 });
        this.written.add(w.record.index);
      }
    }
    return [];
  }

  /** Indices whose record changed since the last call. */
  drainWritten(): Set<string> {
    const out = this.written;
    this.written = new Set();
    return out;
  }
}
