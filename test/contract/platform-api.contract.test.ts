/**
 * The platform gateway against its own generated OpenAPI document, property-based (schemathesis,
 * every check, coverage + fuzzing + stateful phases following the links from a created project to
 * its record, events and decision), signed in, with a worker running the projects it creates and a
 * real OpenSearch node behind /v1/search. The
 * document's example source is pointed at the harness's Sakila, so creating a project succeeds.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataDirDeps } from '../../workers/platform-activities';
import { apiCaller } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../harness/opensearch-pool';
import { runSchemathesis } from '../harness/schemathesis';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';

const TASK_QUEUE = 'platform-contract-test';

describe('platform API contract (schemathesis)', () => {
  let stack: DevServerWithWorker;
  let node: LeasedOpenSearch;
  let gateway: TestGateway;
  let dataDir: string;
  const call = apiCaller(() => gateway.base);

  beforeAll(async () => {
    dataDir = newTestDataDir();
    // One project stage at a time: the projects the run creates are built in the background, and
    // nothing here waits for them (bounded, they leave the other suites their share of the CPU).
    stack = await devServerWithPlatformWorker(TASK_QUEUE, await dataDirDeps(dataDir), {
      agents: 1,
      host: 1,
    });
    // A real node behind /v1/search, so those operations are exercised too.
    node = await leaseTestOpenSearch();
    gateway = await startTestGateway({
      client: stack.env.client,
      taskQueue: TASK_QUEUE,
      dataDir,
      apiStage: 'prod',
      opensearchUrl: node.url,
      // Configured, as in a deployment with Alertmanager: the webhook answers 401 to other callers.
      alertsWebhookToken: 'contract-test-alert-webhook-token-0123456789',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await stack?.stop();
    await node?.release();
  });

  it('keeps every promise of its document', async () => {
    const token = (await call('POST', '/auth/signup', { username: 'contract', password: 'contract test' }))
      .body.id_token as string;
    const doc = (await call('GET', '/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>
      >;
    };
    const { host, port, user, password } = harness().mariadb;
    doc.paths['/v1/projects'].post.requestBody!.content['application/json'].example = {
      jdbc_url: `jdbc:mysql://${host}:${port}/sakila`,
      username: user,
      password,
      description: 'video rental chain',
    };
    const file = path.join(dataDir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const run = await runSchemathesis(file, {
      baseUrl: gateway.base,
      headers: { Authorization: `Bearer ${token}` },
      // The coverage phase tries every operation's boundaries whatever this is; 15 generated cases
      // per operation on top keep the run to minutes on a 2-core machine.
      maxExamples: 15,
    });
    if (run.exitCode !== 0) throw new Error(run.output);
    expect(run.summary).toMatch(/^(\d+) generated, \1 passed/);
  }, 600_000);
});
