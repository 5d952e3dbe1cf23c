/**
 * Lifecycle policies and managed indices behind one interface, whichever engine runs them
 * (docs/search-lifecycle.md#two-engines-one-policy-format): the cluster's ISM plugin when
 * `_cat/plugins` lists it, plat's own engine otherwise. Both speak ISM's request and answer shapes.
 */
import type { IsmPolicy } from '../ism-policy';
import type { OpenSearchClient } from '../opensearch-client';
import type { StoredPolicy } from './lifecycle-store';

/** ISM's answer to add, remove, change and retry. */
export interface ManagedIndicesUpdate {
  updated_indices: number;
  failures: boolean;
  failed_indices: { index_name: string; index_uuid?: string; reason: string }[];
}

export interface LifecycleManager {
  /** `ism`: the cluster's plugin runs the policies; `plat`: plat's lifecycle engine does. */
  readonly engine: 'ism' | 'plat';
  /** A managed domain (Amazon OpenSearch Service) also has warm_migration, cold_migration, cold_delete. */
  readonly managedDomain: boolean;
  getPolicy(id: string): Promise<StoredPolicy | undefined>;
  /** Every stored policy. */
  listPolicies(): Promise<StoredPolicy[]>;
  /** Writes a validated policy; `expected` names the revision an update replaces. */
  putPolicy(
    id: string,
    policy: IsmPolicy,
    expected?: { seq_no: number; primary_term: number },
  ): Promise<StoredPolicy>;
  deletePolicy(id: string): Promise<boolean>;
  /** Attaches a policy to the existing indices of a pattern (new ones get it through ism_template). */
  addPolicy(pattern: string, policyId: string): Promise<ManagedIndicesUpdate>;
  removePolicy(pattern: string): Promise<ManagedIndicesUpdate>;
  /** Restarts the failed action of each failed index of a pattern. */
  retry(pattern: string): Promise<ManagedIndicesUpdate>;
  /** ISM's explain report of each index of a pattern, plus `total_managed_indices`. */
  explain(pattern: string): Promise<Record<string, unknown>>;
}

/** Amazon OpenSearch Service endpoints: the only clusters with the managed-domain actions. */
export function isManagedDomainUrl(url: string): boolean {
  return /\.(es\.amazonaws\.com|aos\.[a-z0-9-]+\.on\.aws)(\.cn)?$/i.test(new URL(url).hostname);
}

/** A cluster signed for as a managed domain, or at an Amazon OpenSearch Service endpoint. */
export function isManagedDomain(client: OpenSearchClient): boolean {
  return client.awsService === 'es' || isManagedDomainUrl(client.url);
}

/** OpenSearch Serverless has no ISM and no rollover: its retention is the collection's own. */
export const SERVERLESS_HAS_NO_LIFECYCLE =
  'an OpenSearch Serverless collection (OPENSEARCH_AWS_SERVICE=aoss) has no index lifecycle to manage: ' +
  'it keeps data by its data lifecycle policies (aws opensearchserverless create-lifecycle-policy)';

/** A lifecycle request that cannot be served (no such policy), with the HTTP status it deserves. */
export class LifecycleRequestError extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'LifecycleRequestError';
  }
}
