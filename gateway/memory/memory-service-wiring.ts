/**
 * The memory service's composition root: the service wired to a data directory and the
 * configuration (its process, the tests and the benchmarks use this; docs/architecture.md#which-process-loads-what).
 */
import * as path from 'node:path';
import type { PlatConfig } from '../../shared/config';
import { llmSettings } from '../../domain/llm/llm-settings';
import { auditFiles } from '../../domain/memory/audit/audit-files';
import { AuditLog, type AuditSink } from '../../domain/memory/audit/audit-log';
import { auditTable } from '../../domain/memory/audit/audit-table';
import { defaultEmbedder } from '../../domain/memory/embedding/default-embedder';
import type { Embedder } from '../../domain/memory/embedding/embedder';
import { claudeFactExtractor } from '../../domain/memory/extraction/claude-fact-extractor';
import { offlineFactExtractor } from '../../domain/memory/extraction/offline-fact-extractor';
import { IdempotencyKeys } from '../../domain/memory/idempotency-keys';
import { MemoryHistory, type HistoryLog, type IdempotencyStore } from '../../domain/memory/memory-history';
import { openSharedMemoryDb } from '../../domain/memory/fleet/shared-memory-db';
import { SharedMemoryStore } from '../../domain/memory/fleet/shared-memory-store';
import { sharedUserWrites } from '../../domain/memory/fleet/user-write-lock';
import { sharedReembedLease } from '../../domain/memory/fleet/shared-reembed-lease';
import { soleReembedLease, type ReembedLease } from '../../domain/memory/reembed-lease';
import { claimMemoryDir } from '../../domain/memory/store/instance-lock';
import type { MemoryStore } from '../../domain/memory/store/memory-store';
import { MemoryService } from '../../domain/memory/memory-service';
import { openEmbeddedMemoryStore } from '../../domain/memory/store/embedded-memory-store';
import { openMemoryDb } from '../../domain/memory/store/memory-db';
import { openQdrantMemoryStore } from '../../domain/memory/store/qdrant-memory-store';
import { inProcessUserWrites, type UserWrites } from '../../domain/memory/store/user-writes';
import { loadWorkspaces } from '../../domain/memory/workspaces/workspace-config';

export type MemorySettings = Parameters<typeof llmSettings>[0] &
  Pick<
    PlatConfig,
    | 'PLAT_MEMORY_AUTOSHARE'
    | 'PLAT_MEMORY_STORE'
    | 'QDRANT_URL'
    | 'QDRANT_API_KEY'
    | 'QDRANT_COLLECTION'
    | 'PLAT_EMBEDDING_MODEL'
    | 'PLAT_EMBEDDING_MODEL_DIR'
    | 'PLAT_TOOLS_DIR'
    | 'PLAT_MEMORY_WORKSPACES'
    | 'PLAT_METADATA_URL'
  >;

/** The service's audit log directory: `<dataDir>/memory/audit_logs/`. */
export function auditDir(dataDir: string): string {
  return path.join(dataDir, 'memory', 'audit_logs');
}

export async function createMemoryService(
  dataDir: string,
  config: MemorySettings,
  opts: { embedder?: Embedder; now?: () => Date } = {},
): Promise<MemoryService> {
  const embedder = opts.embedder ?? defaultEmbedder(config);
  const state = config.PLAT_METADATA_URL
    ? await sharedState(config.PLAT_METADATA_URL, opts.now)
    : await embeddedState(dataDir, opts.now);
  let store: MemoryStore;
  if (config.PLAT_MEMORY_STORE === 'qdrant') {
    if (!config.QDRANT_URL) throw new Error('PLAT_MEMORY_STORE=qdrant needs QDRANT_URL');
    store = await openQdrantMemoryStore({
      url: config.QDRANT_URL,
      apiKey: config.QDRANT_API_KEY,
      collection: config.QDRANT_COLLECTION,
      vectorSize: embedder.dimensions,
      userWrites: state.userWrites,
    });
  } else {
    store = await state.store(embedder.dimensions);
  }
  const llm = llmSettings(config);
  return new MemoryService({
    store,
    history: state.history,
    idempotency: state.idempotency,
    embedder,
    extractor: llm ? claudeFactExtractor(llm) : offlineFactExtractor,
    audit: state.audit,
    autoshare: config.PLAT_MEMORY_AUTOSHARE,
    workspaces: loadWorkspaces(config.PLAT_MEMORY_WORKSPACES, dataDir),
    reembedLease: state.reembedLease,
    now: opts.now,
  });
}

/** Where the service keeps its rows, history, idempotency keys and audit, and its default store. */
interface MemoryState {
  history: HistoryLog;
  idempotency: IdempotencyStore;
  audit: AuditSink;
  store(dims: number): Promise<MemoryStore>;
  /** How a store that cannot lock itself (Qdrant) makes an add's check and insert one step per user. */
  userWrites: UserWrites;
  /** One re-embedding at a time (a fleet's instances take turns). */
  reembedLease: ReembedLease;
}

/**
 * One instance per data directory: the memory database and the audit's daily files under it (the
 * format the memory spec names; a fleet keeps its audit in a table instead).
 */
async function embeddedState(dataDir: string, now?: () => Date): Promise<MemoryState> {
  claimMemoryDir(path.join(dataDir, 'memory'));
  const { db } = await openMemoryDb(dataDir);
  return {
    history: new MemoryHistory(db),
    idempotency: new IdempotencyKeys(db, 'sqlite'),
    audit: new AuditLog(auditFiles(auditDir(dataDir)), now),
    store: (dims) => openEmbeddedMemoryStore(dataDir, dims),
    userWrites: inProcessUserWrites(),
    reembedLease: soleReembedLease,
  };
}

/** Any number of instances on the fleet's PostgreSQL (docs/fleet.md#memory). */
async function sharedState(url: string, now?: () => Date): Promise<MemoryState> {
  const { db, metadata } = await openSharedMemoryDb(url);
  return {
    history: new MemoryHistory(db),
    idempotency: new IdempotencyKeys(db, 'postgres'),
    audit: new AuditLog(auditTable(db), now),
    store: (dims) => SharedMemoryStore.open(db, dims, metadata.notifications),
    userWrites: sharedUserWrites(db),
    reembedLease: sharedReembedLease(db),
  };
}
