/**
 * Two "hosts" sharing one PostgreSQL (docs/fleet.md): each with its own data directory, gateway,
 * worker and memory service, as real processes. A user signs up on A and creates a project there; B accepts A's token,
 * streams the project live over its WebSocket (events written by whichever worker ran the stage) and
 * replays with `since`. Then A's processes are killed with SIGKILL while the project waits for its
 * approval: the decision on B and the rest of the run on B's worker lose nothing, and the password
 * appears in no log, event, record, response, secret row or workflow history. Memories added on
 * A's memory service are found on B's within a second, a retried add on B answers A's id, and
 * killing A mid-write loses no acknowledged memory. The embedded memory store refuses a second
 * instance on its data directory.
 */
import { Client, Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { freePort } from '../../shared/free-port';
import { apiCaller } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { historyText } from '../harness/history-text';
import { newTestDataDir } from '../harness/platform-gateway';
import { freshPostgresDatabase } from '../harness/postgres';
import { startProcess, type Proc } from '../harness/processes';
import { connectWs, type WsMessage } from '../harness/ws-client';

interface Host {
  name: string;
  base: string;
  gateway: Proc;
  worker: Proc;
}

type Message = WsMessage;

/** Follows projects on one gateway's WebSocket. */
async function follow(base: string, token: string) {
  const client = connectWs(base, token);
  await client.opened;
  return client;
}

describe('two hosts sharing one PostgreSQL (real processes)', () => {
  const procs: Proc[] = [];
  afterAll(() => {
    for (const p of procs) p.child.kill('SIGKILL');
  });

  it('serve the same users and projects, and survive losing one host', async () => {
    const shared = {
      TEMPORAL_ADDRESS: harness().temporal.address,
      PLAT_METADATA_URL: await freshPostgresDatabase('two-hosts'),
      PLAT_SECRET_KEY: randomBytes(32).toString('base64'),
      PLAT_TASK_QUEUE: `two-hosts-${Date.now()}`,
      PLAT_SELF_SIGNUP: 'true',
      LOG_LEVEL: 'debug',
    };
    const startHost = async (name: string): Promise<Host> => {
      const port = await freePort();
      const env = {
        ...shared,
        PLAT_DATA_DIR: newTestDataDir(),
        PLAT_GATEWAY_PORT: String(port),
        PLAT_WORKER_METRICS_PORT: String(await freePort()),
      };
      const host = {
        name,
        base: `http://127.0.0.1:${port}`,
        gateway: startProcess('gateway/platform/platform-main.ts', env),
        worker: startProcess('workers/main.ts', env),
      };
      procs.push(host.gateway, host.worker);
      return host;
    };
    const [a, b] = [await startHost('A'), await startHost('B')];
    for (const host of [a, b]) {
      for (let i = 0; ; i++) {
        if ((await fetch(`${host.base}/health?deep=1`).catch(() => undefined))?.ok) break;
        if (i === 900 || host.gateway.child.exitCode !== null)
          throw new Error(
            `gateway ${host.name} never became healthy:\n${host.gateway.output().slice(-3000)}`,
          );
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const onA = apiCaller(a.base);
    const onB = apiCaller(b.base);

    // Signed up on A; the token works on B, and both publish the same signing key.
    const signup = await onA('POST', '/auth/signup', { username: 'hanna', password: 'hanna-password' });
    const token = signup.body.id_token as string;
    expect((await onB('GET', '/v1/projects', undefined, token)).status).toBe(200);
    expect((await onB('POST', '/auth/login', { username: 'hanna', password: 'hanna-password' })).status).toBe(
      200,
    );
    const jwks = async (base: string) => (await fetch(`${base}/.well-known/jwks.json`)).json();
    expect(await jwks(b.base)).toEqual(await jwks(a.base));

    const { port, user, password } = harness().mariadb;
    const created = await onA(
      'POST',
      '/v1/projects',
      { jdbc_url: `jdbc:mysql://127.0.0.1:${port}/sakila`, username: user, password },
      token,
    );
    expect(created.status).toBe(201);
    const id = created.body.project_id as string;

    // Followed live on B; the PRD and the approval request arrive there.
    const live = await follow(b.base, token);
    live.ws.send(JSON.stringify({ action: 'subscribe', project_id: id }));
    const hitl = await live.waitFor((m) => m.event_type === 'hitl_required', 120_000);
    expect((await onB('GET', `/v1/projects/${id}`, undefined, token)).body.status).toBe('waiting_approval');
    live.ws.close();

    // Host A is lost while the project waits for its decision.
    for (const p of [a.gateway, a.worker]) p.child.kill('SIGKILL');
    await Promise.all([a.gateway.exited, a.worker.exited]);

    expect((await onB('POST', `/v1/projects/${id}/hitl/approve`, undefined, token)).status).toBe(200);
    const again = await follow(b.base, token);
    again.ws.send(JSON.stringify({ action: 'subscribe', project_id: id, since: hitl.event_id }));
    const completed = await again.waitFor((m) => m.event_type === 'project_completed', 240_000);
    expect(completed.status).toBe('completed');
    const replayed = again.messages.filter((m) => m.type === 'event');
    expect(replayed.every((m) => (m.event_id as number) > (hitl.event_id as number))).toBe(true);
    expect(new Set(replayed.map((m) => m.event_id)).size).toBe(replayed.length);
    again.ws.close();

    // Every event the store holds reached B's client once, in order (none lost with host A).
    const events = (await onB('GET', `/v1/projects/${id}/events`, undefined, token)).body.events as Message[];
    const after = events.filter((e) => (e.event_id as number) > (hitl.event_id as number));
    expect(replayed.map((m) => m.event_id)).toEqual(after.map((e) => e.event_id));
    const view = (await onB('GET', `/v1/projects/${id}`, undefined, token)).body;
    expect(view.status).toBe('completed');
    expect((view.decision as { decision: string }).decision).toBe('approve');

    // The password: nowhere in any process's output, the records, events, agent logs, the secret
    // rows or the workflow history.
    const connection = await Connection.connect({ address: harness().temporal.address });
    const history = historyText(await new Client({ connection }).workflow.getHandle(id).fetchHistory());
    await connection.close();
    const metadata = await openMetadataDb(shared.PLAT_METADATA_URL);
    const secretRows = await sql`SELECT * FROM secrets`.execute(metadata.db);
    await metadata.close();
    expect(secretRows.rows.length).toBeGreaterThan(1);
    const everything = [
      ...procs.map((p) => p.output()),
      history,
      JSON.stringify(secretRows.rows),
      JSON.stringify(view),
      JSON.stringify(events),
      JSON.stringify((await onB('GET', `/v1/projects/${id}/agent-logs`, undefined, token)).body),
    ].join('\n');
    expect(history).toContain('db:projects/');
    expect(b.worker.output()).toContain('worker polling');
    expect(everything.includes(password)).toBe(false);
  }, 420_000);

  /** Starts a memory service as its own process and waits for /health. */
  const startMemory = async (env: Record<string, string>) => {
    const port = await freePort();
    const proc = startProcess('gateway/memory/memory-main.ts', { ...env, PLAT_MEMORY_PORT: String(port) });
    procs.push(proc);
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if ((await fetch(`${base}/health`).catch(() => undefined))?.ok) break;
      if (i === 600 || proc.child.exitCode !== null)
        throw new Error(`memory service never became healthy:\n${proc.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { proc, base, call: apiCaller(base) };
  };

  it('memory services on both hosts serve the same memories, and losing one loses no acknowledged add', async () => {
    const shared = {
      PLAT_METADATA_URL: await freshPostgresDatabase('two-memory'),
      PLAT_SECRET_KEY: randomBytes(32).toString('base64'),
    };
    const a = await startMemory({ ...shared, PLAT_DATA_DIR: newTestDataDir() });
    const b = await startMemory({ ...shared, PLAT_DATA_DIR: newTestDataDir() });
    const add = (host: typeof a, text: string, key?: string) =>
      host.call('POST', '/memory/add', { user_id: 'uma', text, infer: false, idempotency_key: key });
    const searchB = async (query: string) =>
      (
        (await b.call('POST', '/memory/search', { query, user_id: 'uma', top_k: 5 })).body
          .results as Message[]
      ).map((r) => r.id);

    // B loads uma's (empty) indexes first, so the add must reach it through the change feed.
    expect(await searchB('anything')).toEqual([]);
    const added = await add(a, 'The staging database is restored every Sunday night.', 'k-1');
    const id = (added.body.results as Message[])[0].id;
    const start = Date.now();
    while (!(await searchB('when is staging restored')).includes(id)) {
      if (Date.now() - start > 1000) throw new Error('not found on B within 1 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const retried = await add(b, 'The staging database is restored every Sunday night.', 'k-1');
    expect(retried.body.idempotent_replay).toBe(true);
    expect((retried.body.results as Message[])[0].id).toBe(id);
    expect(
      ((await b.call('GET', `/memory/history/${id}`)).body.results as Message[]).map((h) => h.event),
    ).toEqual(['ADD']);

    // A dies mid-write: every add it acknowledged is on B; nothing is half there.
    const acknowledged: string[] = [];
    const writes = Array.from({ length: 30 }, (_, i) =>
      add(a, `Release note ${i}: feature flag beta-${i} enabled for everyone.`, `note-${i}`)
        .then((r) => {
          if (r.status === 200) acknowledged.push((r.body.results as Message[])[0].id as string);
        })
        .catch(() => undefined),
    );
    while (acknowledged.length < 5) await new Promise((r) => setTimeout(r, 5));
    a.proc.child.kill('SIGKILL');
    await Promise.all(writes);
    await a.proc.exited;
    const listed = ((await b.call('GET', '/memory/list?user_id=uma')).body.results as Message[]).map(
      (m) => m.id,
    );
    for (const ack of acknowledged) expect(listed).toContain(ack);
    // A write that reached the database but not its client is still whole: retried on B, it is not added twice.
    for (let i = 0; i < 30; i++)
      await add(b, `Release note ${i}: feature flag beta-${i} enabled for everyone.`, `note-${i}`);
    const after = ((await b.call('GET', '/memory/list?user_id=uma')).body.results as Message[]).length;
    expect(after).toBe(31);
    const found = await b.call('POST', '/memory/search', {
      query: 'beta-7',
      user_id: 'uma',
      search_mode: 'lexical',
      top_k: 5,
    });
    const texts = (found.body.results as Message[]).map((r) => r.memory as string);
    expect(texts.filter((t) => t.includes('beta-7 '))).toHaveLength(1);
  });

  it('the embedded memory store refuses a second instance on the same data directory', async () => {
    const dataDir = newTestDataDir();
    await startMemory({ PLAT_DATA_DIR: dataDir });
    const second = startProcess('gateway/memory/memory-main.ts', {
      PLAT_DATA_DIR: dataDir,
      PLAT_MEMORY_PORT: String(await freePort()),
    });
    procs.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(
      /another memory service \(pid \d+\) serves .*single-instance.*PLAT_METADATA_URL/s,
    );
  });
});
