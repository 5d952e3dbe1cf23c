/** The memory service process as `npm start` runs it: health, and its bind/auth policy. */
import { spawn } from 'node:child_process';
import { compiledNodeArgs } from '../../scripts/lib/compiled-runtime.cjs';
import { openEmbeddedMemoryStore } from '../../domain/memory/store/embedded-memory-store';
import { otherModelMemory } from '../fixtures/other-model-memory';
import { freePort } from '../../shared/free-port';
import { repoRoot } from '../../shared/paths';
import { newTestDataDir } from '../harness/platform-gateway';

function startMemory(env: NodeJS.ProcessEnv) {
  // From the compiled copy of the sources, as `npm start` and `npm run memory` run it.
  const child = spawn(process.execPath, compiledNodeArgs('gateway/memory/memory-main.ts'), {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', PLAT_DATA_DIR: newTestDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/** A data directory whose store holds `count` memories another model embedded (user `ops`). */
async function storeOfAnotherModel(count: number): Promise<string> {
  const dataDir = newTestDataDir();
  const store = await openEmbeddedMemoryStore(dataDir);
  const at = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const text = `Locker L${i} holds the spare keys for van V${i * 3 + 1000}.`;
    await store.insert(
      otherModelMemory(i, 'ops', text, at),
      Float32Array.from({ length: 384 }, (_, d) => Math.cos((i + 2) * (d + 1) * 0.13)),
    );
  }
  await store.close();
  return dataDir;
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
        reembedding: { running: false, pending: 0, done: 0, total: 0, percent: 100, elsewhere: false },
        supersede: { evoked_words: true, likeness: true },
      });
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toMatch(/^plat_memory_reembed_pending\{[^}]*\} 0$/m);
      expect(text).toMatch(/^plat_memory_feed_gaps_total\{service="memory"\} 0$/m);
    } finally {
      memory.child.kill('SIGTERM');
      expect(await memory.exited).toBe(0);
    }
  });

  it('re-embeds a store another model wrote in the background, answering meanwhile, with progress in /health', async () => {
    const dataDir = await storeOfAnotherModel(400);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const memory = startMemory({
      PLAT_DATA_DIR: dataDir,
      PLAT_MEMORY_HOST: '127.0.0.1',
      PLAT_MEMORY_PORT: String(port),
      PLAT_MEMORY_API_KEYS: '',
    });
    type Health = {
      reembedding: { running: boolean; pending: number; done: number; total: number; percent: number };
    };
    try {
      await untilListening(`${base}/health`);
      const seen: Health['reembedding'][] = [];
      let searchesWhileRunning = 0;
      for (let i = 0; i < 600; i++) {
        const { reembedding } = (await (await fetch(`${base}/health`)).json()) as Health;
        seen.push(reembedding);
        if (!reembedding.running && reembedding.pending === 0) break;
        const res = await fetch(`${base}/memory/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user_id: 'ops', query: 'locker L17 keys', time_decay: false, top_k: 10 }),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
        // Found by its terms whether or not it is redone yet (hybrid may rank redone look-alikes
        // above it until then: docs/memory-search.md#the-embedding-model).
        const byTerms = await fetch(`${base}/memory/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user_id: 'ops', query: 'L17', search_mode: 'lexical', time_decay: false }),
        });
        const { results } = (await byTerms.json()) as { results: { memory: string }[] };
        expect(results[0].memory).toContain('Locker L17 ');
        searchesWhileRunning++;
        await new Promise((r) => setTimeout(r, 20));
      }
      const running = seen.filter((h) => h.running);
      expect(running.length).toBeGreaterThan(0);
      expect(searchesWhileRunning).toBeGreaterThan(0);
      expect(running.every((h) => h.total === 400 && h.done + h.pending === 400)).toBe(true);
      expect(running.map((h) => h.percent)).toEqual([...running.map((h) => h.percent)].sort((a, b) => a - b));
      expect(seen[seen.length - 1]).toEqual({
        running: false,
        pending: 0,
        done: 0,
        total: 0,
        percent: 100,
        elsewhere: false,
      });
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^plat_memory_reembed_pending\{[^}]*\} 0$/m);
      expect(memory.output()).toContain('re-embedding memories made by another model in the background');
      expect(memory.output()).toMatch(/"memories":400[^\n]*re-embedding done/);
    } finally {
      memory.child.kill('SIGTERM');
      const code = await memory.exited;
      if (code !== 0) console.log(memory.output());
      expect(code).toBe(0);
    }
  });

  it('stops re-embedding at a signal after the batch in the model’s hands, and exits cleanly', async () => {
    // Ending while the model's worker thread was mid-batch aborted the process (onnxruntime).
    const dataDir = await storeOfAnotherModel(2000);
    const port = await freePort();
    const memory = startMemory({
      PLAT_DATA_DIR: dataDir,
      PLAT_MEMORY_HOST: '127.0.0.1',
      PLAT_MEMORY_PORT: String(port),
      PLAT_MEMORY_API_KEYS: '',
    });
    try {
      await untilListening(`http://127.0.0.1:${port}/health`);
      for (let i = 0; i < 500; i++) {
        const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
          reembedding: { running: boolean; done: number };
        };
        if (health.reembedding.running && health.reembedding.done > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      memory.child.kill('SIGTERM');
    }
    const code = await memory.exited;
    if (code !== 0) console.log(memory.output());
    expect(code).toBe(0);
    expect(memory.output()).toContain('shutting down');
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
