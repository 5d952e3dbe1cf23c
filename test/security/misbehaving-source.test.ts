/**
 * A source server that completes the MySQL handshake and then stalls, or floods its answer, through
 * the public API of a real gateway: the create-project probe answers 422 `source_misbehaved` within
 * its bounds, holds no request, reads no more than its cap, and the gateway keeps answering
 * (docs/security.md#sources).
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { apiCaller } from '../harness/api-caller';
import { startMisbehavingMysql } from '../harness/misbehaving-mysql';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerEnv } from '../harness/temporal-envs';

describe('a source that stalls or floods, through the API', () => {
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let token: string;
  const call = apiCaller(() => gateway.base);

  beforeAll(async () => {
    env = await devServerEnv();
    gateway = await startTestGateway({ client: env.client, taskQueue: 'misbehaving-source-test' });
    token = (await call('POST', '/auth/signup', { username: 'mallory', password: 'correct horse' })).body
      .id_token as string;
  });
  afterAll(async () => {
    await gateway?.stop();
    await env?.teardown();
  });

  it.each([
    ['stall', /sent nothing for 5 s/],
    ['flood', /sent more than 1 MB/],
  ] as const)('%s: refused with the reason, in bounded time and bytes', async (mode, reason) => {
    const server = await startMisbehavingMysql(mode);
    try {
      const rss = process.memoryUsage().rss;
      const started = Date.now();
      const created = call(
        'POST',
        '/v1/projects',
        { jdbc_url: `jdbc:mysql://127.0.0.1:${server.port}/shop`, username: 'u', password: 'p' },
        token,
      );
      // The gateway keeps answering while the probe waits.
      expect((await call('GET', '/health')).status).toBe(200);
      const res = await created;
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({
        code: 'source_misbehaved',
        message: expect.stringMatching(reason),
      });
      expect(Date.now() - started).toBeLessThan(15_000);
      // Cut off near its cap: what the server managed to write before the connection closed.
      expect(server.written()).toBeLessThan(64_000_000);
      expect(process.memoryUsage().rss - rss).toBeLessThan(300_000_000);
      // No project was started for it.
      expect((await call('GET', '/v1/projects', undefined, token)).body).toMatchObject({ total: 0 });
    } finally {
      await server.close();
    }
  });
});
