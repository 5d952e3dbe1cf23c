/**
 * Lifecycle on a cluster without ISM: policies and managed-index records in plat's own store, run by
 * plat's lifecycle engine, answering with ISM's request and answer shapes (add, remove, retry, explain).
 */
import type { IsmPolicy } from '../ism-policy';
import type { OpenSearchClient } from '../opensearch-client';
import { LifecycleRequestError, type LifecycleManager, type ManagedIndicesUpdate } from './lifecycle-manager';
import {
  MANAGED_INDEX,
  PlatLifecycleStore,
  POLICIES_INDEX,
  type ManagedWrite,
  type StoredManagedIndex,
  type StoredPolicy,
} from './lifecycle-store';
import { indexIdentities, type IndexIdentity } from './cluster-snapshot';
import { templatePolicyFor } from './ism-template-match';
import { attachedRecord, explainEntry, unmanagedEntry } from './managed-index';

export class PlatLifecycleManager implements LifecycleManager {
  readonly engine = 'plat' as const;
  readonly managedDomain = false;
  private readonly store: PlatLifecycleStore;

  constructor(private readonly client: OpenSearchClient) {
    this.store = new PlatLifecycleStore(client);
  }

  getPolicy(id: string): Promise<StoredPolicy | undefined> {
    return this.store.getPolicy(id);
  }

  listPolicies(): Promise<StoredPolicy[]> {
    return this.store.listPolicies();
  }

  putPolicy(
    id: string,
    policy: IsmPolicy,
    expected?: { seq_no: number; primary_term: number },
  ): Promise<StoredPolicy> {
    return this.store.putPolicy(id, policy, Date.now(), expected);
  }

  deletePolicy(id: string): Promise<boolean> {
    return this.store.deletePolicy(id);
  }

  async addPolicy(pattern: string, policyId: string): Promise<ManagedIndicesUpdate> {
    const policy = await this.store.getPolicy(policyId);
    if (!policy) throw new LifecycleRequestError(404, `Could not find policy [${policyId}]`);
    return this.eachIndex(pattern, (row, m, marker) => {
      if (m) return 'This index already has a policy, use the update policy API to update index policies';
      const record = attachedRecord(row, policy, 0);
      return marker
        ? { op: 'update', record, seq_no: marker.seq_no, primary_term: marker.primary_term }
        : { op: 'create', record };
    });
  }

  /**
   * Attaches an index just created (a manual rollover) to the policy whose ism_template claims it,
   * as ISM does at creation; the engine would otherwise at its next pass. Returns the policy id.
   */
  async claimNewIndex(index: string): Promise<string | undefined> {
    const [[row], policies, { managed, removed }] = await Promise.all([
      this.indices(index),
      this.store.listPolicies(),
      this.records(),
    ]);
    if (!row || managed.has(index) || removed.has(index)) return undefined;
    const claim = templatePolicyFor(row, policies);
    if (!claim) return undefined;
    await this.store.write([{ op: 'create', record: attachedRecord(row, claim.policy, 0) }]);
    return claim.policy._id;
  }

  async removePolicy(pattern: string): Promise<ManagedIndicesUpdate> {
    return this.eachIndex(pattern, (_row, m) => {
      if (!m) return 'This index does not have a policy to remove';
      // Kept as a marker, so the policy's ism_template does not claim the index again.
      const record = { ...m.record, auto_manage: false as const, enabled: false };
      return { op: 'update', record, seq_no: m.seq_no, primary_term: m.primary_term };
    });
  }

  async retry(pattern: string): Promise<ManagedIndicesUpdate> {
    return this.eachIndex(pattern, (_row, m) => {
      if (!m?.record.action?.failed)
        return m ? 'This index is not in failed state.' : 'This index is not being managed.';
      const record = structuredClone(m.record);
      record.action = { ...record.action!, failed: false, consumed_retries: 0, last_retry_time: 0 };
      record.step = {
        name: record.step?.name ?? record.action.name,
        start_time: Date.now(),
        step_status: 'starting',
      };
      record.info = { message: 'Pending retry of failed managed index' };
      return { op: 'update', record, seq_no: m.seq_no, primary_term: m.primary_term };
    });
  }

  async explain(pattern: string): Promise<Record<string, unknown>> {
    const [indices, { managed }] = await Promise.all([this.indices(pattern), this.records()]);
    const out: Record<string, unknown> = {};
    let total = 0;
    for (const row of indices) {
      const m = managed.get(row.index);
      if (m && m.record.index_uuid === row.uuid) {
        total++;
        out[row.index] = explainEntry(m.record);
      } else out[row.index] = unmanagedEntry();
    }
    return { ...out, total_managed_indices: total };
  }

  /** The open indices a pattern names (the cluster resolves it; a missing concrete name is its 404). */
  private async indices(pattern: string): Promise<IndexIdentity[]> {
    const rows = await indexIdentities(this.client, pattern);
    return rows.filter((r) => r.index !== POLICIES_INDEX && r.index !== MANAGED_INDEX);
  }

  /** Records of indices under a policy by index, and apart, the markers of removed policies. */
  private async records(): Promise<{
    managed: Map<string, StoredManagedIndex>;
    removed: Map<string, StoredManagedIndex>;
  }> {
    const all = await this.store.managed();
    const byIndex = (list: StoredManagedIndex[]) => new Map(list.map((m) => [m.record.index, m]));
    return {
      managed: byIndex(all.filter((m) => m.record.auto_manage !== false)),
      removed: byIndex(all.filter((m) => m.record.auto_manage === false)),
    };
  }

  /**
   * What add, remove and retry share: for each open index the pattern names, the write `writeFor`
   * decides on, or the reason it refuses that index (ISM's failed_indices); then the writes applied.
   */
  private async eachIndex(
    pattern: string,
    writeFor: (
      row: IndexIdentity,
      managed: StoredManagedIndex | undefined,
      removedMarker: StoredManagedIndex | undefined,
    ) => ManagedWrite | string,
  ): Promise<ManagedIndicesUpdate> {
    const [indices, { managed, removed }] = await Promise.all([this.indices(pattern), this.records()]);
    const update = emptyUpdate();
    const writes: ManagedWrite[] = [];
    for (const row of indices) {
      const write = writeFor(row, managed.get(row.index), removed.get(row.index));
      if (typeof write === 'string')
        update.failed_indices.push({ index_name: row.index, index_uuid: row.uuid, reason: write });
      else writes.push(write);
    }
    return this.apply(writes, update);
  }

  private async apply(writes: ManagedWrite[], update: ManagedIndicesUpdate): Promise<ManagedIndicesUpdate> {
    const refused = await this.store.write(writes);
    update.updated_indices = writes.length - refused.length;
    for (const r of refused)
      update.failed_indices.push({
        index_name: r.index,
        reason: `changed meanwhile, try again (${r.reason})`,
      });
    update.failures = update.failed_indices.length > 0;
    return update;
  }
}

function emptyUpdate(): ManagedIndicesUpdate {
  return { updated_indices: 0, failures: false, failed_indices: [] };
}
