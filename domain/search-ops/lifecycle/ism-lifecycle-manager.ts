/**
 * Lifecycle through the cluster's ISM plugin (`_plugins/_ism/*`): plat writes the policies and
 * attaches them; ISM runs them on its own job interval; plat reads ISM's explain.
 */
import type { IsmPolicy } from '../ism-policy';
import { OpenSearchError, type OpenSearchClient } from '../opensearch-client';
import type { LifecycleManager, ManagedIndicesUpdate } from './lifecycle-manager';
import type { StoredPolicy } from './lifecycle-store';

const ISM = '/_plugins/_ism';
const enc = encodeURIComponent;

export class IsmLifecycleManager implements LifecycleManager {
  readonly engine = 'ism' as const;

  constructor(
    private readonly client: OpenSearchClient,
    readonly managedDomain: boolean,
  ) {}

  async getPolicy(id: string): Promise<StoredPolicy | undefined> {
    try {
      return await this.client.request<StoredPolicy>('GET', `${ISM}/policies/${enc(id)}`);
    } catch (err) {
      // ISM answers a missing policy with 404 (status_exception "Policy not found").
      if (err instanceof OpenSearchError && err.status === 404) return undefined;
      throw err;
    }
  }

  async listPolicies(): Promise<StoredPolicy[]> {
    const res = await this.client.request<{ policies: StoredPolicy[] }>('GET', `${ISM}/policies?size=1000`);
    return res.policies;
  }

  async putPolicy(
    id: string,
    policy: IsmPolicy,
    expected?: { seq_no: number; primary_term: number },
  ): Promise<StoredPolicy> {
    const guard = expected ? `?if_seq_no=${expected.seq_no}&if_primary_term=${expected.primary_term}` : '';
    // ISM sets these itself and refuses a body that carries them.
    const body = Object.fromEntries(
      Object.entries(policy).filter(
        ([k]) => !['policy_id', 'last_updated_time', 'schema_version'].includes(k),
      ),
    );
    const res = await this.client.request<{
      _id: string;
      _version: number;
      _seq_no: number;
      _primary_term: number;
      policy: { policy: StoredPolicy['policy'] };
    }>('PUT', `${ISM}/policies/${enc(id)}${guard}`, { policy: body });
    return { ...res, policy: res.policy.policy };
  }

  async deletePolicy(id: string): Promise<boolean> {
    try {
      await this.client.request('DELETE', `${ISM}/policies/${enc(id)}`);
      return true;
    } catch (err) {
      if (err instanceof OpenSearchError && err.status === 404) return false;
      throw err;
    }
  }

  addPolicy(pattern: string, policyId: string): Promise<ManagedIndicesUpdate> {
    return this.client.request('POST', `${ISM}/add/${enc(pattern)}`, { policy_id: policyId });
  }

  removePolicy(pattern: string): Promise<ManagedIndicesUpdate> {
    return this.client.request('POST', `${ISM}/remove/${enc(pattern)}`);
  }

  retry(pattern: string): Promise<ManagedIndicesUpdate> {
    return this.client.request('POST', `${ISM}/retry/${enc(pattern)}`);
  }

  explain(pattern: string): Promise<Record<string, unknown>> {
    return this.client.request('GET', `${ISM}/explain/${enc(pattern)}`);
  }
}
