/**
 * The statements both row stores run on the `memories` table, written once with Kysely
 * (docs/fleet.md#one-query-layer-versioned-migrations): the shared store executes them on
 * PostgreSQL, the embedded store compiles them for SQLite and runs them on the file synchronously
 * (its row write and index update have no await between them).
 */
import { sql, type Kysely } from 'kysely';
import type { MemoryRecord } from '../../../shared/memory-model';
import type { MemoryFilter, VersionScope } from './memory-store';
import { MEMORY_COLUMNS, vectorBytes } from './memory-row';
import type { MemoryTables } from './memory-schema';
import { plainFields } from './record-fields';

/** What an update writes: the new text and its vector, with the record's metadata (and category). */
export interface RowChange extends Pick<
  MemoryRecord,
  'memory' | 'hash' | 'updated_at' | 'embedder' | 'valid_from'
> {
  metadata: Record<string, unknown>;
  category: string | null;
}

/** The rows of `f`'s scope, current or as of `f.valid_at` (docs/memory-validity.md). */
function filteredMemories(db: Kysely<MemoryTables>, f: MemoryFilter) {
  let q = db.selectFrom('memories').where('user_id', '=', f.user_id);
  if (f.agent_id !== undefined) q = q.where('agent_id', '=', f.agent_id);
  if (f.run_id !== undefined) q = q.where('run_id', '=', f.run_id);
  if (f.long_term) q = q.where('run_id', 'is', null);
  if (f.run_id_from !== undefined) q = q.where('run_id', '>=', f.run_id_from);
  // created_at is stored as ISO 8601 UTC (toISOString), so text order is time order.
  if (f.created_from !== undefined) q = q.where('created_at', '>=', new Date(f.created_from).toISOString());
  if (f.created_to !== undefined) q = q.where('created_at', '<', new Date(f.created_to).toISOString());
  // Validity: the current memories, or those holding at `valid_at`.
  if (f.include_earlier) return q;
  if (f.valid_at === undefined) return q.where('valid_to', 'is', null);
  const at = new Date(f.valid_at).toISOString();
  // A row an older instance wrote has no valid_from: it holds since it was stated.
  return q
    .where((eb) => eb.fn.coalesce('valid_from', 'created_at'), '<=', at)
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', at)]));
}

/** A record as its row. */
const rowOf = (record: MemoryRecord, vector: Float32Array) => ({
  ...plainFields(record),
  metadata_json: JSON.stringify(record.metadata),
  vector: vectorBytes(vector),
});

/** What an update sets on the row. */
const changedColumns = (change: RowChange, vector: Float32Array) => ({
  memory: change.memory,
  hash: change.hash,
  updated_at: change.updated_at,
  embedder: change.embedder,
  metadata_json: JSON.stringify(change.metadata),
  category: change.category,
  valid_from: change.valid_from,
  vector: vectorBytes(vector),
});

/** The statements, built on `db` (the pool, a transaction, or a SQLite compiler). */
export function memoryQueries(db: Kysely<MemoryTables>) {
  const filtered = (f: MemoryFilter) => filteredMemories(db, f);
  return {
    filtered,
    /** The newest first (then by id), at most `limit`. */
    list: (f: MemoryFilter, limit: number) =>
      filtered(f).select(MEMORY_COLUMNS).orderBy('created_at', 'desc').orderBy('id').limit(limit),
    /** A row of the filter's scope with this text hash. */
    byHash: (f: MemoryFilter, hash: string) =>
      filtered(f).select(MEMORY_COLUMNS).where('hash', '=', hash).limit(1),
    byId: (id: string) => db.selectFrom('memories').select(MEMORY_COLUMNS).where('id', '=', id),
    byIds: (ids: string[]) => db.selectFrom('memories').select(MEMORY_COLUMNS).where('id', 'in', ids),
    /** Rows another embedder made (re-embedded in the background). */
    stale: (embedder: string, limit: number) =>
      db.selectFrom('memories').select(MEMORY_COLUMNS).where('embedder', '!=', embedder).limit(limit),
    countStale: (embedder: string) =>
      db
        .selectFrom('memories')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('embedder', '!=', embedder),
    insert: (record: MemoryRecord, vector: Float32Array) =>
      db.insertInto('memories').values(rowOf(record, vector)),
    update: (id: string, change: RowChange, vector: Float32Array) =>
      db.updateTable('memories').set(changedColumns(change, vector)).where('id', '=', id),
    delete: (id: string) => db.deleteFrom('memories').where('id', '=', id),
    /** A memory's earlier versions (docs/memory-validity.md), oldest first. */
    versions: (scope: VersionScope) => {
      let q = db.selectFrom('memories').select(MEMORY_COLUMNS).where('user_id', '=', scope.user_id);
      q =
        scope.memory_id !== undefined
          ? q.where('version_of', '=', scope.memory_id)
          : q.where('version_of', 'is not', null);
      if (scope.agent_id !== undefined) q = q.where('agent_id', '=', scope.agent_id);
      return q.orderBy('version_of').orderBy('valid_from');
    },
    /** Users with their row counts. */
    users: () =>
      db
        .selectFrom('memories')
        .select((eb) => ['user_id', eb.fn.countAll<number | string>().as('n')])
        .groupBy('user_id'),
    /** A user's rows as the indexes load them, in keyset pages after `after` (created_at, id). */
    loadPage: (userId: string, after: [string, string], limit: number) =>
      db
        .selectFrom('memories')
        .select(['id', 'agent_id', 'run_id', 'created_at', 'memory', 'vector', 'valid_from', 'valid_to'])
        .where('user_id', '=', userId)
        // A row value, so both engines walk the (user_id, created_at, id) index.
        .where(sql<boolean>`(created_at, id) > (${after[0]}, ${after[1]})`)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit),
  };
}

export type MemoryQueries = ReturnType<typeof memoryQueries>;
