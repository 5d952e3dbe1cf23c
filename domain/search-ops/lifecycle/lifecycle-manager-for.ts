/**
 * The lifecycle manager of the engine a cluster has (docs/search-lifecycle.md#two-engines-one-policy-format):
 * the cluster's ISM plugin when `_cat/plugins` lists it, plat's own engine otherwise. Apart from the
 * interface (lifecycle-manager.ts), which both engines implement.
 */
import type { OpenSearchClient } from '../opensearch-client';
import { ISM_PLUGIN } from '../rolling-index-bootstrap';
import { IsmLifecycleManager } from './ism-lifecycle-manager';
import {
  isManagedDomain,
  LifecycleRequestError,
  SERVERLESS_HAS_NO_LIFECYCLE,
  type LifecycleManager,
} from './lifecycle-manager';
import { PlatLifecycleManager } from './plat-lifecycle-manager';

/** The manager of the engine the cluster has. */
export async function lifecycleManager(client: OpenSearchClient): Promise<LifecycleManager> {
  if (client.awsService === 'aoss') throw new LifecycleRequestError(422, SERVERLESS_HAS_NO_LIFECYCLE);
  const managedDomain = isManagedDomain(client);
  if ((await client.plugins()).includes(ISM_PLUGIN)) return new IsmLifecycleManager(client, managedDomain);
  return new PlatLifecycleManager(client);
}
