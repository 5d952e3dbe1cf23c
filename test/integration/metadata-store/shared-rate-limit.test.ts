/**
 * A per-user limit counted in the metadata store holds for the fleet: calls spread over two gateways
 * count together, each user apart, and the 429 says when to retry.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { AttemptCounters } from '../../../domain/metadata-store/attempt-counters';
import { sharedRateLimit } from '../../../gateway/shared-rate-limit';
import { HttpError } from '../../../gateway/http-errors';
import { BACKENDS, storeOpener } from './backends';

describe.each(BACKENDS)('a shared per-user limit on $name', (backend) => {
  const opener = storeOpener(backend);
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    await opener.closeAll();
  });

  /** A gateway whose one route is limited to `perMinute` per user (named by a header). */
  async function gateway(location: string, perMinute: number): Promise<string> {
    const app = express();
    app.use((req, _res, next) => {
      req.user = { user_id: String(req.headers['x-user']), username: 'u', roles: [] } as never;
      next();
    });
    app.post(
      '/create',
      sharedRateLimit(new AttemptCounters(await opener.open(location)), 'create', perMinute),
      (_req, res) => {
        res.status(201).json({ ok: true });
      },
    );
    app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      const e = err as HttpError;
      res.status(e.status ?? 500).json({ error: { code: e.code } });
    });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('counts a user’s calls on every gateway together, and each user apart', async () => {
    const location = await backend.fresh('shared-rate-limit');
    const [a, b] = [await gateway(location, 3), await gateway(backend.other(location), 3)];
    const create = (base: string, user: string) =>
      fetch(`${base}/create`, { method: 'POST', headers: { 'x-user': user } });
    const statuses: number[] = [];
    for (const base of [a, b, a, b, a]) statuses.push((await create(base, 'ann')).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await create(b, 'ann');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited' } });
    // Another user has room of their own.
    expect((await create(b, 'bea')).status).toBe(201);
  });
});
