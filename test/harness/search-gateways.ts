/**
 * The gateways of the /v1/search tests: one on a leased OpenSearch node, and a bare one on the same
 * data directory (the same users and keys) without OpenSearch, where /v1/search needs a cluster.
 */
import { leaseTestOpenSearch, type LeasedOpenSearch } from './opensearch-pool';
import { startTestGateway, type TestGateway } from './platform-gateway';
import { devServerEnv } from './temporal-envs';

/** Both gateways and the node; `stop` in afterAll. */
export interface SearchGateways {
  node: LeasedOpenSearch;
  /** Searches `node`. */
  gateway: TestGateway;
  /** Same data as `gateway`, no OpenSearch. */
  bare: TestGateway;
  /** Stops both gateways and the Temporal environment, then releases the node. */
  stop(): Promise<void>;
}

/** Leases a node (it may wait for one: call in a beforeAll with a long timeout) and starts both gateways. */
export async function startSearchGateways(taskQueue: string): Promise<SearchGateways> {
  const node = await leaseTestOpenSearch();
  const env = await devServerEnv();
  const gateway = await startTestGateway({ client: env.client, taskQueue, opensearchUrl: node.url });
  const bare = await startTestGateway({ client: env.client, taskQueue, dataDir: gateway.dataDir });
  return {
    node,
    gateway,
    bare,
    async stop() {
      await gateway.stop();
      await bare.stop();
      await env.teardown();
      await node.release();
    },
  };
}
