/**
 * The WebSocket of the real gateway: the token is verified before the upgrade (401 on the HTTP
 * level, no socket), each user holds a bounded number of connections (429 beyond), a message over
 * 64 KiB closes the socket with 1009, a flood of messages closes it with 1008, and a user follows
 * only their own projects.
 */
import { Client, Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import { WebSocket } from 'ws';
import { WS_CLOSE, WS_MAX_PAYLOAD, WS_MAX_PENDING } from '../../gateway/ws/event-hub';
import { startedProjectView } from '../fixtures/stored-project';
import { apiCaller, signUp } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { connectWs } from '../harness/ws-client';

const CAP = 3;

/** An upgrade request as a browser sends it: the answer's status and body, and whether it upgraded. */
function upgrade(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { error?: { code: string; message: string } }; upgraded: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: {}, upgraded: true });
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {}, upgraded: false }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const subjectOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string }).sub;

describe('the WebSocket upgrade', () => {
  let connection: Connection;
  let gateway: TestGateway;
  let una: string;
  let vic: string;
  const projectId = 'proj-ws-upgrade-1';

  beforeAll(async () => {
    connection = Connection.lazy({ address: harness().temporal.address });
    gateway = await startTestGateway({
      client: new Client({ connection }),
      taskQueue: 'ws-upgrade',
      env: { PLAT_WS_CONNECTIONS_PER_USER: String(CAP) },
    });
    const call = apiCaller(gateway.base);
    una = await signUp(call, 'una', 'una-password');
    vic = await signUp(call, 'vic', 'vic-password');
    // Una's project, as the worker would have stored it, with one event.
    const view = startedProjectView({
      project_id: projectId,
      owner_id: subjectOf(una),
      created_at: new Date().toISOString(),
      description: 'ws test',
    });
    await gateway.deps.store.saveProgress(view, [
      {
        event_key: `${projectId}:started`,
        project_id: projectId,
        event_type: 'log_entry',
        phase: 'prd',
        status: 'running',
        message: 'started',
        timestamp: new Date().toISOString(),
        payload: {},
      },
    ]);
  });
  afterAll(async () => {
    await gateway?.stop();
    await connection?.close();
  });

  it('answers 401 on the HTTP level, without upgrading, to no token or a bad one', async () => {
    expect(await upgrade(gateway.base, '/ws')).toMatchObject({
      status: 401,
      upgraded: false,
      body: { error: { code: 'unauthorized' } },
    });
    const forged = `${una.split('.').slice(0, 2).join('.')}.${Buffer.from('forged').toString('base64url')}`;
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${una.split('.')[1]}.`;
    for (const token of [forged, unsigned, 'not.a.token', 'x'.repeat(6000), '%00%0d%0a']) {
      for (const [path, headers] of [
        [`/ws?token=${encodeURIComponent(token)}`, {}],
        ['/v1/ws', { authorization: `Bearer ${token}` }],
      ] as const) {
        const answer = await upgrade(gateway.base, path, headers);
        expect(answer).toMatchObject({
          status: 401,
          upgraded: false,
          body: { error: { code: 'invalid_token' } },
        });
      }
    }
    expect(await upgrade(gateway.base, `/ws/../admin?token=${una}`)).toMatchObject({
      status: 404,
      upgraded: false,
    });
  });

  it('shows a WebSocket client (the CLI) the HTTP answer, not an open socket', async () => {
    const ws = new WebSocket(`${gateway.base.replace('http', 'ws')}/ws`, {
      headers: { authorization: 'Bearer expired' },
    });
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (req, res) => (resolve(res.statusCode ?? 0), req.destroy()));
      ws.on('open', () => (resolve(101), ws.close()));
      ws.on('error', () => resolve(-1));
    });
    expect(status).toBe(401);
  });

  it('upgrades with a valid token, in the query or the Authorization header', async () => {
    expect(await upgrade(gateway.base, `/ws?token=${una}`)).toMatchObject({ status: 101, upgraded: true });
    expect(await upgrade(gateway.base, '/v1/ws', { authorization: `Bearer ${una}` })).toMatchObject({
      status: 101,
      upgraded: true,
    });
  });

  it("streams a user's own project and refuses another user's", async () => {
    const owner = connectWs(gateway.base, una);
    const stranger = connectWs(gateway.base, vic);
    await Promise.all([owner.opened, stranger.opened]);
    owner.ws.send(JSON.stringify({ action: 'subscribe', project_id: projectId }));
    stranger.ws.send(JSON.stringify({ action: 'subscribe', project_id: projectId }));
    expect(await owner.waitFor((m) => m.type === 'event')).toMatchObject({
      project_id: projectId,
      message: 'started',
    });
    expect(await stranger.waitFor((m) => m.type === 'error')).toMatchObject({
      message: `no project ${projectId}`,
    });
    expect(stranger.messages.some((m) => m.type === 'subscribed' || m.type === 'event')).toBe(false);
    owner.ws.close();
    stranger.ws.close();
    await Promise.all([owner.closed, stranger.closed]);
  });

  it('closes the socket with 1009 for a message over 64 KiB, and answers one just under it', async () => {
    const client = connectWs(gateway.base, una);
    await client.opened;
    client.ws.send('x'.repeat(WS_MAX_PAYLOAD - 16));
    expect(await client.waitFor((m) => m.type === 'error')).toMatchObject({
      message: 'messages must be JSON',
    });
    client.ws.send('x'.repeat(WS_MAX_PAYLOAD + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it('closes the socket with 1008 when more messages wait than it serves', async () => {
    const client = connectWs(gateway.base, una);
    await client.opened;
    // One burst: the gateway reads them all before it has handled the first.
    for (let i = 0; i < WS_MAX_PENDING * 10; i++)
      client.ws.send(JSON.stringify({ action: 'subscribe', project_id: projectId }));
    expect((await client.closed).code).toBe(WS_CLOSE.tooManyPending);
  });

  it(`holds at most ${CAP} connections per user: the next upgrade gets 429, other users are served`, async () => {
    const open = Array.from({ length: CAP }, () => connectWs(gateway.base, una));
    await Promise.all(open.map((c) => c.opened));
    const over = await upgrade(gateway.base, '/ws', { authorization: `Bearer ${una}` });
    expect(over).toMatchObject({
      status: 429,
      upgraded: false,
      body: { error: { code: 'too_many_connections' } },
    });
    const other = connectWs(gateway.base, vic);
    await other.opened;
    // A closed connection frees its place (the gateway may see the close a moment after the client).
    open[0].ws.close();
    await open[0].closed;
    let again = await upgrade(gateway.base, '/ws', { authorization: `Bearer ${una}` });
    for (let i = 0; i < 100 && again.status === 429; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await upgrade(gateway.base, '/ws', { authorization: `Bearer ${una}` });
    }
    expect(again).toMatchObject({ status: 101, upgraded: true });
    for (const c of [...open.slice(1), other]) c.ws.close();
  });
});
