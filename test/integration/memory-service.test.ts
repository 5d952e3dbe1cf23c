/** The memory service process as `npm start` runs it: health, and its bind/auth policy. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from '../../scripts/lib/free-port';
import { repoRoot } from '../../shared/paths';
import { newTestDataDir } from '../harness/platform-gateway';

function startMemory(env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'gateway', 'memory-main.ts')],
    {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: 'info', PLAT_DATA_DIR: newTestDataDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  return { child, exited, output: () => output };
}

async function untilListening(url: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nothing answered at ${url}`);
}

describe('memory service process', () => {
  it('answers /health on loopback without a key', async () => {
    const port = await freePort();
    const memory = startMemory({
      PLAT_MEMORY_HOST: '127.0.0.1',
      PLAT_MEMORY_PORT: String(port),
      PLAT_MEMORY_API_KEYS: '',
    });
    try {
      await untilListening(`http://127.0.0.1:${port}/health`);
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await res.json()).toEqual({
        status: 'ok',
        service: 'memory',
        embedder: expect.stringMatching(/^Xenova\/.+:q8:[0-9a-f]{12}$/),
        reembedding: { running: false, pending: 0, done: 0, total: 0, percent: 100 },
      });
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^plat_memory_reembed_pending\{[^}]*\} 0$/m);
    } finally {
      memory.child.kill('SIGTERM');
      expect(await memory.exited).toBe(0);
    }
  });

  it('refuses to bind beyond loopback without API keys', async () => {
    const memory = startMemory({
      PLAT_MEMORY_HOST: '0.0.0.0',
      PLAT_MEMORY_PORT: String(await freePort()),
      PLAT_MEMORY_API_KEYS: '',
    });
    expect(await memory.exited).toBe(1);
    expect(memory.output()).toContain('PLAT_MEMORY_API_KEYS');
  });

  it('beyond loopback with keys, every call but /health needs the key', async () => {
    const port = await freePort();
    const memory = startMemory({
      PLAT_MEMORY_HOST: '0.0.0.0',
      PLAT_MEMORY_PORT: String(port),
      PLAT_MEMORY_API_KEYS: 'k-123',
    });
    try {
      await untilListening(`http://127.0.0.1:${port}/health`);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      const authed = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: 'Bearer k-123' },
      });
      expect(authed.status).toBe(200);
    } finally {
      memory.child.kill('SIGTERM');
      await memory.exited;
    }
  });
});
