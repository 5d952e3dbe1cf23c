/**
 * The source policy where it holds: the real gateway refuses a new project's source at a metadata
 * address or at plat's own services with 422 before sending it anything, the worker's activities
 * refuse it for good, and connections go to the address that was checked. The harness's MariaDB on
 * 127.0.0.1 stays a source.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { MockActivityEnvironment } from '@temporalio/testing';
import * as net from 'node:net';
import { createAnalysisActivities } from '../../activities/analysis/analysis-activities';
import { createOdsPartActivities } from '../../activities/analysis/ods-part-activities';
import { sourceConnector } from '../../domain/sources/mysql-connection';
import { SourcePolicy, systemResolver, type Resolver } from '../../domain/sources/source-policy';
import { loadConfig } from '../../shared/config';
import { parseJdbcUrl } from '../../shared/mysql-source';
import { dataDirDeps } from '../../workers/platform-activities';
import { apiCaller } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { freshPostgresDatabase } from '../harness/postgres';
import { devServerEnv } from '../harness/temporal-envs';

const TASK_QUEUE = 'source-policy-test';

/** A TCP server that counts the connections it is offered: a refused source must get none. */
async function countingListener(): Promise<{
  port: number;
  connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('source policy', () => {
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let listener: Awaited<ReturnType<typeof countingListener>>;
  let metadataUrl: URL;
  let token: string;
  const call = apiCaller(() => gateway.base);
  const created: string[] = [];

  beforeAll(async () => {
    env = await devServerEnv();
    listener = await countingListener();
    metadataUrl = new URL(await freshPostgresDatabase('source-policy'));
    gateway = await startTestGateway({
      client: env.client,
      taskQueue: TASK_QUEUE,
      dataDir: newTestDataDir(),
      env: {
        // The gateway's own services, as a deployment's configuration would name them.
        PLAT_METADATA_URL: metadataUrl.toString(),
        PLAT_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
        TEMPORAL_ADDRESS: harness().temporal.address,
        PLAT_MEMORY_URL: `http://127.0.0.1:${listener.port}`,
      },
    });
    token = (await call('POST', '/auth/signup', { username: 'tenant', password: 'tenant password' })).body
      .id_token as string;
  });
  afterAll(async () => {
    for (const id of created)
      await env.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    await gateway?.stop();
    await listener?.close();
    await env?.teardown();
  });

  const createWith = (jdbc_url: string) =>
    call(
      'POST',
      '/v1/projects',
      { jdbc_url, username: harness().mariadb.user, password: harness().mariadb.password },
      token,
    );

  it('answers 422 source_not_allowed for cloud metadata addresses, however written', async () => {
    for (const host of [
      '169.254.169.254',
      '2852039166',
      '0xA9FEA9FE',
      '[::ffff:a9fe:a9fe]',
      'metadata.google.internal',
    ]) {
      const res = await createWith(`jdbc:mysql://${host}:3306/sakila`);
      expect([host, res.status]).toEqual([host, 422]);
      expect(res.body.error).toEqual({
        code: 'source_not_allowed',
        message: `${host}:3306 is not allowed by the source policy`,
        details: [{ field: 'jdbc_url', message: 'not allowed by the source policy' }],
      });
    }
    // Userinfo is no part of the URL's grammar: the host is all of it, which no resolver knows.
    const withUser = await createWith('jdbc:mysql://evil@169.254.169.254:3306/sakila');
    expect(withUser.status).toBe(422);
    expect((withUser.body.error as { code: string }).code).toBe('source_unreachable');
    expect((withUser.body.error as { message: string }).message).toMatch(/ENOTFOUND evil@169\.254\.169\.254/);
  });

  it("answers 422 for the metadata database's, Temporal's and the memory service's addresses, sending them nothing", async () => {
    const temporal = harness().temporal.address;
    for (const address of [
      `${metadataUrl.hostname}:${metadataUrl.port}`,
      `localhost:${metadataUrl.port}`,
      temporal,
      `127.0.0.1:${listener.port}`,
      // 127.0.0.1 as an IPv4-mapped IPv6 address.
      `[::ffff:7f00:1]:${listener.port}`,
    ]) {
      const res = await createWith(`jdbc:mysql://${address}/sakila`);
      expect([address, res.status, (res.body.error as { code: string }).code]).toEqual([
        address,
        422,
        'source_not_allowed',
      ]);
    }
    expect(listener.connections()).toBe(0);
    expect((await call('GET', '/v1/projects', undefined, token)).body.total).toBe(0);
  });

  it('still creates a project on the MariaDB at 127.0.0.1', async () => {
    const { host, port } = harness().mariadb;
    const res = await createWith(`jdbc:mysql://${host}:${port}/sakila`);
    expect(res.status).toBe(201);
    created.push(res.body.project_id as string);
  });

  it("fails the worker's activities for good on a refused source, before connecting", async () => {
    const deps = await dataDirDeps(newTestDataDir(), {
      sources: SourcePolicy.fromConfig(loadConfig({ PLAT_MEMORY_URL: `http://127.0.0.1:${listener.port}` })),
    });
    const passwordRef = await deps.secrets.put('projects/p/db-password', 'p');
    for (const jdbc_url of [
      'jdbc:mysql://169.254.169.254:3306/sakila',
      `jdbc:mysql://localhost:${listener.port}/sakila`,
    ]) {
      const source = { jdbc_url, username: 'u', password_ref: passwordRef, target: parseJdbcUrl(jdbc_url) };
      const prd = await new MockActivityEnvironment()
        .run(createAnalysisActivities(deps).generatePrd, { project_id: 'p', description: '', source })
        .catch((e: unknown) => e);
      expect(prd).toMatchObject({ type: 'SourceNotAllowed', nonRetryable: true });
      const plan = await new MockActivityEnvironment()
        .run(createOdsPartActivities(deps).planOdsCopy, {
          project_id: 'p',
          source,
          prd: { layers: { ods: [] } } as never,
        })
        .catch((e: unknown) => e);
      expect(plan).toMatchObject({ type: 'SourceNotAllowed', nonRetryable: true });
    }
    expect(listener.connections()).toBe(0);
  });

  it('connects to the address it checked, and checks the name again for every connection', async () => {
    const { host, port, user, password } = harness().mariadb;
    // A name only this resolver knows: the driver cannot have looked it up itself.
    let lookups = 0;
    const rebinding: Resolver = async (name) =>
      name === 'sakila.test' ? (lookups++ === 0 ? [host] : ['169.254.169.254']) : systemResolver(name);
    const connector = sourceConnector(
      parseJdbcUrl(`jdbc:mysql://sakila.test:${port}/sakila`),
      user,
      password,
      5_000,
      new SourcePolicy({ resolve: rebinding }),
    );
    const db = await connector.connect();
    try {
      const [rows] = await db.query('SELECT COUNT(*) AS n FROM actor');
      expect(Number((rows as { n: number }[])[0].n)).toBe(200);
    } finally {
      await db.end();
    }
    // The name now points at the metadata address: the next connection is refused.
    await expect(connector.connect()).rejects.toMatchObject({ code: 'SOURCE_NOT_ALLOWED' });
    expect(lookups).toBe(2);
  });
});
