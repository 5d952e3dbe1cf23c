/**
 * The platform gateway's operations on an OpenSearch cluster (`/v1/search`, a project's agent logs)
 * against its own generated OpenAPI document, property-based like platform-api.contract.test.ts,
 * with a real node behind them; its access logs are shipped to the node as in a deployment.
 */
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../harness/opensearch-pool';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerEnv } from '../harness/temporal-envs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { runPlatformContract } from './platform-document';

describe('platform API contract on a cluster (schemathesis)', () => {
  let node: LeasedOpenSearch;
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let dataDir: string;

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    env = await devServerEnv();
    dataDir = newTestDataDir();
    gateway = await startTestGateway({
      client: env.client,
      taskQueue: 'platform-search-contract-test',
      dataDir,
      apiStage: 'prod',
      opensearchUrl: node.url,
    });
  }, 300_000);
  afterAll(async () => {
    await gateway?.stop();
    await env?.teardown();
    await node?.release();
  });

  it('keeps every promise of its document on a real node', async () => {
    await runPlatformContract({ base: gateway.base, dir: dataDir, operations: 'on a cluster' });
  }, 600_000);
});
