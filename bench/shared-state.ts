/**
 * `npm run bench:shared-state`: how soon a second host sees what the first wrote (docs/fleet.md),
 * on a private PostgreSQL started for the run (Debian's, as `npm start -- --with-postgres` runs it).
 *
 * - Events across gateways: a project's events saved through one connection pool ("worker on host
 *   A"); another pool ("gateway on host B") is told by NOTIFY and reads them. Measured: from the
 *   save's return to B holding the events. Baseline in the same run: the embedded file's gateway,
 *   which polls every 250 ms (the same save, read by a 250 ms poll loop on another connection).
 * - Memories across instances: a memory inserted through shared store A, searched on store B until
 *   found (target < 1 s). Baseline: the same insert searched on store A itself (read your writes).
 * - Adds across instances: `MemoryService.add` (infer off, an idempotency key each) alternately on
 *   instance A and B for one user, timed from call to answer (target: p99 < 30 ms): the duplicate
 *   check, the key's claim and the insert as a fleet runs them. Baseline: the store's insert alone
 *   (the inserts of the search measurement above). The embedder is a hash of the text, so the
 *   figures are the shared state's, not the model's.
 *
 * BENCH_EVENTS=200  BENCH_MEMORIES=200  BENCH_ADDS=400
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSharedMemoryDb } from '../domain/memory/fleet/shared-memory-db';
import { SharedMemoryStore } from '../domain/memory/fleet/shared-memory-store';
import { AuditLog } from '../domain/memory/audit/audit-log';
import { auditTable } from '../domain/memory/audit/audit-table';
import { MemoryHistory } from '../domain/memory/memory-history';
import { IdempotencyKeys } from '../domain/memory/idempotency-keys';
import type { Embedder } from '../domain/memory/embedding/embedder';
import { offlineFactExtractor } from '../domain/memory/extraction/offline-fact-extractor';
import { MemoryService } from '../domain/memory/memory-service';
import type { MemoryStore } from '../domain/memory/store/memory-store';
import { metadataDbPath, openMetadataDb } from '../domain/metadata-store/metadata-db';
import { ProjectStore } from '../domain/metadata-store/project-store';
import { freePort } from '../shared/free-port';
import { startPrivatePostgres } from '../scripts/lib/postgres-instance';
import { initialProjectView } from '../shared/initial-project-view';
import type { ProjectEvent } from '../shared/project-model';
import { envInt, loadLine, machineLine, ms, ratio, runBench, summarize, table } from './lib/bench-stats';

const EVENTS = envInt('BENCH_EVENTS', 200);
const MEMORIES = envInt('BENCH_MEMORIES', 200);
const ADDS = envInt('BENCH_ADDS', 400);
const DIMS = 384;
const EMBEDDED_POLL_MS = 250;

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

function unitVector(seed: number): Float32Array {
  let a = seed >>> 0;
  const v = Float32Array.from({ length: DIMS }, () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 2 ** 32 - 0.5;
  });
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Vectors from the text's hash: no model, so an add's figure is the shared state's work. */
const hashEmbedder: Embedder = {
  id: 'bench-hash',
  dimensions: DIMS,
  embed: async (texts) =>
    texts.map((t) =>
      unitVector([...t].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261)),
    ),
};

function projectView(id: string) {
  return initialProjectView({
    project_id: id,
    owner_id: 'bench',
    created_at: new Date().toISOString(),
    description: 'bench',
    reuse_ods: false,
    source: {
      jdbc_url: 'jdbc:mysql://db:3306/x',
      username: 'u',
      password_ref: 'db:x',
      target: { host: 'db', port: 3306, database: 'x', options: {} },
    },
  });
}

const event = (projectId: string, i: number): ProjectEvent => ({
  event_key: `${projectId}:${i}`,
  project_id: projectId,
  event_type: 'log_entry',
  phase: 'prd',
  status: 'running',
  message: `event ${i}`,
  timestamp: new Date().toISOString(),
  payload: {},
});

/** Delay from each save's return until `seen(i)` holds, measured by `wait`. */
async function eventDelays(
  writer: ProjectStore,
  projectId: string,
  wait: (i: number) => Promise<void>,
): Promise<number[]> {
  await writer.saveProgress(projectView(projectId), []);
  const delays: number[] = [];
  for (let i = 1; i <= EVENTS; i++) {
    await writer.addEvents([event(projectId, i)]);
    const start = performance.now();
    await wait(i);
    delays.push(performance.now() - start);
    // A random phase of the poll period, so the baseline is not in step with its poll.
    await sleep(Math.random() * EMBEDDED_POLL_MS);
  }
  return delays;
}

/** A reader that learns of events as `watch` tells it, or by polling every `pollMs`. */
function reader(store: ProjectStore, projectId: string) {
  let cursor = 0;
  let seen = 0;
  const read = async () => {
    for (const e of await store.eventsSince(projectId, cursor)) {
      cursor = e.event_id;
      seen++;
    }
  };
  return {
    read,
    until: async (n: number) => {
      while (seen < n) await sleep(1);
    },
  };
}

async function main(): Promise<void> {
  console.log(machineLine());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-shared-'));
  const pg = await startPrivatePostgres({
    dataDir: path.join(dir, 'pg'),
    port: await freePort(),
    logFile: path.join(dir, 'pg.log'),
  });
  try {
    const url = await pg.ensureDatabase('bench');
    const hostA = await openMetadataDb(`${url}?application_name=host-a`);
    const hostB = await openMetadataDb(`${url}?application_name=host-b`);

    // Events: NOTIFY on the shared database.
    const pushed = reader(new ProjectStore(hostB), 'proj-20261125-pushed');
    const stop = await new ProjectStore(hostB).watchEvents((id) => {
      if (id === 'proj-20261125-pushed') void pushed.read();
    });
    const push = await eventDelays(new ProjectStore(hostA), 'proj-20261125-pushed', (i) => pushed.until(i));
    stop?.();

    // Baseline: the embedded file, read by the gateway's 250 ms poll.
    const file = await openMetadataDb(metadataDbPath(path.join(dir, 'embedded')));
    const polled = reader(new ProjectStore(file), 'proj-20261125-polled');
    let polling = true;
    const loop = (async () => {
      while (polling) {
        await polled.read();
        await sleep(EMBEDDED_POLL_MS);
      }
    })();
    const poll = await eventDelays(new ProjectStore(file), 'proj-20261125-polled', (i) => polled.until(i));
    polling = false;
    await loop;

    // Memories: add on A, find on B; baseline: find on A.
    const open = async (name: string) => {
      const { db, metadata } = await openSharedMemoryDb(`${url}?application_name=${name}`);
      const store = await SharedMemoryStore.open(db, DIMS, metadata.notifications);
      const service = new MemoryService({
        store,
        history: new MemoryHistory(db),
        idempotency: new IdempotencyKeys(db, 'postgres'),
        embedder: hashEmbedder,
        extractor: offlineFactExtractor,
        audit: new AuditLog(auditTable(db)),
      });
      return { store, service };
    };
    const [instanceA, instanceB] = [await open('memory-a'), await open('memory-b')];
    const [a, b]: MemoryStore[] = [instanceA.store, instanceB.store];
    const across: number[] = [];
    const own: number[] = [];
    const inserts: number[] = [];
    const found = async (store: MemoryStore, id: string, v: Float32Array) => {
      while ((await store.search(v, { user_id: 'bench' }, 1))[0]?.record.id !== id) await sleep(1);
    };
    for (let i = 0; i < MEMORIES; i++) {
      const v = unitVector(i + 1);
      const at = new Date().toISOString();
      const id = randomUUID();
      const insertStart = performance.now();
      await a.insert(
        {
          id,
          memory: `memory ${i} ${randomBytes(4).toString('hex')}`,
          user_id: 'bench',
          agent_id: null,
          run_id: null,
          metadata: {},
          category: null,
          hash: id,
          created_at: at,
          updated_at: at,
          embedder: 'bench',
          valid_from: at,
          valid_to: null,
          version_of: null,
        },
        v,
      );
      inserts.push(performance.now() - insertStart);
      // Both from the insert's return, side by side.
      const start = performance.now();
      const since = () => performance.now() - start;
      const [onA, onB] = await Promise.all([found(a, id, v).then(since), found(b, id, v).then(since)]);
      own.push(onA);
      across.push(onB);
    }
    const adds: number[] = [];
    for (let i = 0; i < ADDS; i++) {
      const { service } = i % 2 ? instanceB : instanceA;
      const start = performance.now();
      const answer = await service.add({
        user_id: 'bench-add',
        text: `fact ${i} ${randomBytes(4).toString('hex')}`,
        infer: false,
        idempotency_key: `add-${i}`,
      });
      adds.push(performance.now() - start);
      if (answer.results[0]?.event !== 'ADD') throw new Error(`add ${i} answered ${JSON.stringify(answer)}`);
    }
    await a.close();
    await b.close();

    const [sPush, sPoll, sAcross, sOwn] = [push, poll, across, own].map(summarize);
    const [sAdd, sInsert] = [adds, inserts].map(summarize);
    const row = (name: string, s: ReturnType<typeof summarize>) => [name, ms(s.p50), ms(s.p99), ms(s.max)];
    console.log(
      table(
        ['delay until the other side sees it', 'p50 ms', 'p99 ms', 'max ms'],
        [
          row(`event on gateway B, pushed by NOTIFY (${EVENTS} events)`, sPush),
          row(`baseline: event on the embedded file's ${EMBEDDED_POLL_MS} ms poll`, sPoll),
          row(`memory found by a search on instance B (${MEMORIES} adds)`, sAcross),
          row('baseline: memory found on the instance that added it', sOwn),
        ],
      ),
    );
    console.log(
      `events: pushed / polled p50 ${ratio(sPush.p50, sPoll.p50)}; memories: B / A p50 ${ratio(sAcross.p50, sOwn.p50)}; ` +
        `target (memory on B within 1 s): max ${ms(sAcross.max)} ms, ${sAcross.max < 1000 ? 'met' : 'NOT met'}`,
    );
    console.log(
      table(
        ['time to answer', 'p50 ms', 'p99 ms', 'max ms'],
        [
          row(`add through the service, A and B in turn (${ADDS} adds, idempotency keys)`, sAdd),
          row(`baseline: the store's insert alone (${MEMORIES} inserts)`, sInsert),
        ],
      ),
    );
    console.log(
      `adds: service / insert p99 ${ratio(sAdd.p99, sInsert.p99)}; target (add p99 < 30 ms): ` +
        `${ms(sAdd.p99)} ms, ${sAdd.p99 < 30 ? 'met' : 'NOT met'}`,
    );
    console.log(loadLine());
    await Promise.all([hostA.close(), hostB.close(), file.close()]);
  } finally {
    await pg.service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
