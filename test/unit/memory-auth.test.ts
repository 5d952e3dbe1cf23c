import express from 'express';
import type { AddressInfo } from 'node:net';
import { assertBindAllowed, isLoopback, requireApiKey } from '../../gateway/memory-auth';

describe('memory service auth policy', () => {
  it('treats only loopback addresses as loopback', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.com'].some(isLoopback)).toBe(false);
  });

  it('refuses a non-loopback bind without keys, allows it with keys', () => {
    expect(() => assertBindAllowed('0.0.0.0', [])).toThrow(/PLAT_MEMORY_API_KEYS/);
    expect(() => assertBindAllowed('0.0.0.0', ['k'])).not.toThrow();
    expect(() => assertBindAllowed('127.0.0.1', [])).not.toThrow();
  });

  it('requires a configured Bearer key on every call when keys are set', async () => {
    const app = express();
    app.use(requireApiKey(['secret-one', 'secret-two']));
    app.get('/x', (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    try {
      const none = await fetch(url);
      expect(none.status).toBe(401);
      expect(((await none.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer secret-two' } })).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
