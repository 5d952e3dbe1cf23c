/**
 * The platform gateway against its own generated OpenAPI document, property-based (schemathesis,
 * every check, coverage + fuzzing + stateful phases following the links from a created project to
 * its record, events and decision), signed in, with a worker running the projects it creates. The
 * document's example source is pointed at the harness's Sakila, so creating a project succeeds.
 * The operations on an OpenSearch cluster run in platform-search.contract.test.ts, against a real
 * node: this file, the run's longest, does not hold one of the run's nodes for its minutes.
 */
import { dataDirDeps } from '../../workers/platform-activities';
import { harness } from '../harness/harness-state';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';
import { runPlatformContract } from './platform-document';

const TASK_QUEUE = 'platform-contract-test';

describe('platform API contract (schemathesis)', () => {
  let stack: DevServerWithWorker;
  let gateway: TestGateway;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = newTestDataDir();
    // One project stage at a time: the projects the run creates are built in the background, and
    // nothing here waits for them (bounded, they leave the other suites their share of the CPU).
    stack = await devServerWithPlatformWorker(TASK_QUEUE, await dataDirDeps(dataDir), {
      agents: 1,
      host: 1,
    });
    gateway = await startTestGateway({
      client: stack.env.client,
      taskQueue: TASK_QUEUE,
      dataDir,
      apiStage: 'prod',
      // Configured, as in a deployment with Alertmanager: the webhook answers 401 to other callers.
      alertsWebhookToken: 'contract-test-alert-webhook-token-0123456789',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await stack?.stop();
  });

  it('keeps every promise of its document, but for the operations on a cluster', async () => {
    const { host, port, user, password } = harness().mariadb;
    await runPlatformContract({
      base: gateway.base,
      dir: dataDir,
      operations: 'the others',
      edit: (paths) => {
        paths['/v1/projects'].post.requestBody!.content['application/json'].example = {
          jdbc_url: `jdbc:mysql://${host}:${port}/sakila`,
          username: user,
          password,
          description: 'video rental chain',
        };
      },
    });
  }, 600_000);
});
