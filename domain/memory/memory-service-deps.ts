/** What the memory service (memory-service.ts) is made of; each of its parts picks what it uses. */
import type { AuditSink } from './audit/audit-log';
import type { Embedder } from './embedding/embedder';
import type { FactExtractor } from './extraction/fact-extractor';
import type { HistoryLog, IdempotencyStore } from './memory-history';
import type { ReembedLease } from './reembed-lease';
import type { MemoryStore } from './store/memory-store';
import type { Workspace } from './workspaces/workspace-config';

export interface MemoryServiceDeps {
  idempotency?: IdempotencyStore;
  /** Agent workspaces, for the session-start context's journals. */
  workspaces?: Workspace[];
  store: MemoryStore;
  history: HistoryLog;
  embedder: Embedder;
  extractor: FactExtractor;
  audit: AuditSink;
  /** Copy experience/procedural long-term memories to the shared space (PLAT_MEMORY_AUTOSHARE). */
  autoshare?: boolean;
  /** One re-embedding at a time across a fleet (reembed-lease.ts); default: this instance runs it. */
  reembedLease?: ReembedLease;
  now?: () => Date;
}
