import express from 'express';
import type { AddressInfo } from 'node:net';
import { errorHandler } from '../../gateway/http-errors';
import { perUserRateLimit } from '../../gateway/rate-limit';

describe('per-user rate limit', () => {
  it('allows a burst of N per minute, then answers 429 with Retry-After, and refills with time', async () => {
    let clock = 0;
    const app = express();
    app.use(
      (req, _res, next) => (
        (req.user = { user_id: String(req.get('x-user')), username: 'u', roles: [] }),
        next()
      ),
    );
    app.post(
      '/p',
      perUserRateLimit(3, () => clock),
      (_req, res) => void res.status(201).json({}),
    );
    app.use(errorHandler({ error: () => {} }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`;
    const post = (user: string) => fetch(url, { method: 'POST', headers: { 'x-user': user } });
    try {
      expect([(await post('a')).status, (await post('a')).status, (await post('a')).status]).toEqual([
        201, 201, 201,
      ]);
      const limited = await post('a');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('20');
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      expect((await post('b')).status).toBe(201); // another user has their own bucket
      clock += 20_000; // one token back
      expect((await post('a')).status).toBe(201);
      expect((await post('a')).status).toBe(429);
    } finally {
      server.close();
    }
  });
});
