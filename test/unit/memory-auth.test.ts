import express from 'express';
import type { AddressInfo } from 'node:net';
import { assertBindAllowed, isLoopback } from '../../gateway/memory/memory-auth';
import { identifyMemoryCaller, memoryCallerOf } from '../../gateway/memory/memory-callers';
import { parseMemoryAgentKeys } from '../../shared/memory-agent-keys';

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

  it('knows its caller: a service key, a scoped key, an ID token; refuses anything else when keys are set', async () => {
    const agentKeys = parseMemoryAgentKeys(
      JSON.stringify([{ name: 'ada-bot', key: 'ada-bot-key-0123456789', users: ['ada'] }]),
    );
    const app = express();
    app.use(
      identifyMemoryCaller({
        serviceKeys: ['secret-one', 'secret-two'],
        agentKeys,
        tokens: {
          verify: async (token) => {
            if (token !== 'header.payload.signature') throw new Error('signature verification failed');
            return { user_id: 'ada', username: 'ada', roles: [] };
          },
        },
      }),
    );
    app.get('/x', (_req, res) => void res.json(memoryCallerOf(res)));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const as = (bearer?: string) =>
      fetch(url, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
    try {
      const none = await as();
      expect(none.status).toBe(401);
      expect(((await none.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
      expect((await as('wrong')).status).toBe(401);
      expect(await (await as('secret-two')).json()).toEqual({ kind: 'service' });
      expect(await (await as('ada-bot-key-0123456789')).json()).toMatchObject({
        kind: 'agent',
        key: { name: 'ada-bot', users: ['ada'], agents: '*', shared: false },
      });
      expect(await (await as('header.payload.signature')).json()).toEqual({ kind: 'user', userId: 'ada' });
      const forged = await as('header.payload.forged');
      expect(forged.status).toBe(401);
      expect(await forged.json()).toEqual({
        error: { code: 'invalid_token', message: 'the ID token was refused: signature verification failed' },
      });
    } finally {
      server.close();
    }
  });

  it('reads scoped keys from JSON and says which entry is wrong, never quoting a key', () => {
    expect(parseMemoryAgentKeys(undefined)).toEqual([]);
    expect(() => parseMemoryAgentKeys('[{"name":"x","key":"short","users":"*"}]')).toThrow(
      '0.key: a key of at least 16 characters',
    );
    expect(() => parseMemoryAgentKeys('[{"name":"x","key":"0123456789abcdef","users":[]}]')).toThrow(
      /0\.users/,
    );
    let message = '';
    try {
      parseMemoryAgentKeys('[{"name":"x","key":"0123456789abcdef-secret", users: "*"}]');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('not JSON');
    expect(() =>
      parseMemoryAgentKeys(
        JSON.stringify([
          { name: 'x', key: '0123456789abcdef', users: '*' },
          { name: 'x', key: '0123456789abcdeg', users: '*' },
        ]),
      ),
    ).toThrow('x: two keys with one name');
  });

  it('refuses one key value configured twice, where a scoped key would act as a service key', () => {
    const agentKeys = parseMemoryAgentKeys(
      JSON.stringify([{ name: 'bot', key: 'shared-value-0123456789', users: ['ada'] }]),
    );
    expect(() => identifyMemoryCaller({ serviceKeys: ['shared-value-0123456789'], agentKeys })).toThrow(
      'a memory key is configured twice',
    );
  });
});
