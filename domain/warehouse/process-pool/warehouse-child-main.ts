/**
 * A warehouse child: one process of the pool that runs a project's DuckDB work for its parent (the
 * gateway or a worker), under the memory limit it was started with (docs/security.md#warehouse-processes).
 * Whatever a tenant's SQL does to it (runs out of memory, aborts, runs past its deadline and is
 * killed) ends this process, never its parent's.
 */
import type { ProjectQuery } from '../warehouse-engine';
import type { WarehouseReadSession } from '../duckdb-read-query';
import { DuckDbWarehouse } from '../duckdb-warehouse';
import { duckdb } from '../duckdb-module';
import {
  serializeError,
  type WarehouseChildAnswer,
  type WarehouseChildOp,
  type WarehouseChildOps,
  type WarehouseChildRequest,
  type WarehouseChildSettings,
} from './warehouse-child-protocol';

const settings = JSON.parse(process.argv[2] ?? '{}') as WarehouseChildSettings;
if (!settings.limits || !process.send) {
  console.error('warehouse child: started without its settings or an IPC channel');
  process.exit(2);
}
/** The engine of one request: a root per request, so one pool serves every root of its host. */
const engineOn = (root: string) => new DuckDbWarehouse(root, settings.limits);

/** The session of the current lease, if one is open: a child serves one lease at a time. */
let session: { query?: ProjectQuery; read?: WarehouseReadSession; close(): void } | undefined;

type Handler<K extends WarehouseChildOp> = (root: string, ...args: WarehouseChildOps[K]) => Promise<unknown>;

const handlers: { [K in WarehouseChildOp]: Handler<K> } = {
  query: (root, ...args) => engineOn(root).query(...args),
  buildLayer: (root, ...args) => engineOn(root).buildLayer(...args),
  refreshLayer: (root, ...args) => engineOn(root).refreshLayer(...args),
  describeLayer: (root, ...args) => engineOn(root).describeLayer(...args),
  async openQuerySession(root, projectId) {
    closeSession();
    // The session lives until the parent closes it: `work` holds it open meanwhile.
    await new Promise<void>((opened, failed) => {
      engineOn(root)
        .withQuerySession(
          projectId,
          (query) =>
            new Promise<void>((closed) => {
              session = { query, close: closed };
              opened();
            }),
        )
        .catch(failed);
    });
    return null;
  },
  sessionQuery(_root, ...args) {
    if (!session?.query) throw new Error('no query session is open');
    return session.query(...args);
  },
  async openReadSession(root, projectId, layer, limits) {
    closeSession();
    const read = await engineOn(root).openReadSession(projectId, layer, limits);
    session = { read, close: () => read.close() };
    return null;
  },
  readQuery(_root, sql, options) {
    if (!session?.read) throw new Error('no read session is open');
    return session.read.query(sql, options);
  },
  async closeSession() {
    closeSession();
    return null;
  },
};

function closeSession() {
  session?.close();
  session = undefined;
}

const send = (answer: WarehouseChildAnswer) => process.send?.(answer);

process.on('message', (request: WarehouseChildRequest) => {
  const handler = handlers[request.op] as (root: string, ...args: unknown[]) => Promise<unknown>;
  void Promise.resolve()
    .then(() => handler(request.root, ...request.args))
    .then(
      (value) => send({ id: request.id, ok: true, value }),
      (err: unknown) => send({ id: request.id, ok: false, error: serializeError(err) }),
    );
});
// The parent is gone (it closed the pool, or died): nothing is left to serve.
process.on('disconnect', () => process.exit(0));

// DuckDB's module loads before the child says it is ready, so a lease never waits for it.
duckdb();
send({ ready: true });
