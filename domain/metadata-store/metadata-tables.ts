/**
 * The metadata store's tables as Kysely sees them: one description for both dialects (SQLite
 * embedded, PostgreSQL shared). Times are ISO 8601 UTC text, so text order is time order in both.
 */
import type { Generated } from 'kysely';

export interface ProjectsTable {
  project_id: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
  status: string;
  view_json: string;
}

export interface EventsTable {
  event_id: Generated<number>;
  project_id: string;
  event_key: string;
  event_type: string;
  phase: string;
  status: string;
  message: string;
  payload_json: string;
  timestamp: string;
}

export interface AgentLogsTable {
  id: Generated<number>;
  project_id: string;
  log_key: string;
  agent: string;
  phase: string;
  tool: string;
  params_json: string;
  summary: string;
  duration_ms: number;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  timestamp: string;
}

export interface UsersTable {
  user_id: string;
  username: string;
  password_hash: string;
  created_at: string;
  /** `operator` or `tenant` (gateway/auth/roles.ts). */
  role: Generated<string>;
  /** 1 on the deployment's first account, null on every other: unique, so only one sign-up wins it. */
  first_account: number | null;
}

export interface MemoryPipelineStateTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface ProjectArtifactsTable {
  project_id: string;
  kind: string;
  content_json: string;
  updated_at: string;
}

export interface AlarmNotificationsTable {
  id: Generated<number>;
  alarm: string;
  fingerprint: string;
  status: string;
  starts_at: string;
  ends_at: string | null;
  summary: string;
  labels_json: string;
  received_at: string;
}

/** Parameters (secrets) sealed with AES-256-GCM under the shared key; see domain/secrets/. */
export interface SecretsTable {
  name: string;
  iv: string;
  tag: string;
  ciphertext: string;
  updated_at: string;
  /** The sealing key's id (sealed-value.ts); null on values sealed before key ids. */
  key_id: string | null;
}

/** Hosts whose workers serve a host queue, and when each was last seen (domain/fleet/). */
export interface WorkerHostsTable {
  host_id: string;
  hostname: string;
  /** The workloads its workers serve, comma-separated. */
  workloads: string;
  started_at: string;
  last_seen_at: string;
  /** Set when its last worker stopped cleanly (drained); cleared when one starts again. */
  stopped_at: string | null;
}

/** Hits of a rate limit in a key's current window, shared by every gateway (attempt-counters.ts). */
export interface AttemptCountersTable {
  /** What is counted, e.g. `auth-ip:203.0.113.7` or `auth-user:ana`. */
  key: string;
  hits: number;
  /** When the window ends: the next hit starts a new one, and until then the row may be pruned. */
  expires_at: string;
}

export interface LeaseSlotsTable {
  /** Whose slots, e.g. `query:<user_id>`. */
  key: string;
  /** 0 … n-1. */
  slot: number;
  /** The holder's random id: only it frees the slot. */
  lease: string;
  /** When the lease ends even if never freed (a gateway that died). */
  expires_at: string;
}

export interface MetadataTables {
  projects: ProjectsTable;
  events: EventsTable;
  agent_logs: AgentLogsTable;
  users: UsersTable;
  memory_pipeline_state: MemoryPipelineStateTable;
  project_artifacts: ProjectArtifactsTable;
  alarm_notifications: AlarmNotificationsTable;
  secrets: SecretsTable;
  worker_hosts: WorkerHostsTable;
  attempt_counters: AttemptCountersTable;
  lease_slots: LeaseSlotsTable;
}
