/**
 * plat's one typed configuration: every environment variable any process reads, with its default.
 * Not for workflow code (it reads process.env); workflows receive what they need as input.
 */
import { z } from 'zod';
import { DEFAULT_EMBEDDING_MODEL, EMBEDDING_MODEL_KEYS } from './embedding-models';
import { hiddenValue, redactUrl } from './redact';
import { parseMemoryAgentKeys } from './memory-agent-keys';
import { parseSourceRules } from './source-rules';
import { WORKLOADS, parseSlots, parseWorkloads } from './task-queues';
import { parseTrustProxy } from './trust-proxy';
import { wellKnownSecretsIn } from './well-known-secrets';

/** A whole number read from the environment, within [min, max]; `expected` is what errors say. */
const wholeNumber = (fallback: number, min: number, max: number, expected: string) =>
  z
    .string()
    .default(String(fallback))
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, expected)
    .transform(Number);

const port = (fallback: number) => wholeNumber(fallback, 1, 65535, 'a TCP port, 1-65535');

const bool = (fallback: boolean) =>
  z
    .string()
    .default(String(fallback))
    .refine((v) => ['true', 'false', '1', '0'].includes(v), 'true or false')
    .transform((v) => v === 'true' || v === '1');

/** A refinement that accepts what `parse` accepts and reports its error message otherwise. */
const checkedBy = (parse: (v: string) => unknown) => (v: string, ctx: z.RefinementCtx) => {
  try {
    parse(v);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
  }
};

/** PLAT_SOURCE_ALLOW and PLAT_SOURCE_DENY: what a list holds, then which entry is wrong and why. */
const sourceRules = z
  .string()
  .superRefine(
    checkedBy((v) => {
      try {
        parseSourceRules(v);
      } catch (err) {
        throw new Error(
          `comma-separated CIDRs and host names, e.g. 10.0.0.0/8,db.example.com; ${(err as Error).message}`,
          { cause: err },
        );
      }
    }),
  )
  .optional();

const hostPort = z.string().regex(/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/, 'host:port, e.g. localhost:7233');

const httpUrl = z
  .string()
  .url('an http(s) URL, e.g. http://localhost:9200')
  .refine((v) => /^https?:\/\//.test(v), {
    message: 'an http(s) URL, e.g. http://localhost:9200',
  });

/** Each variable: its schema and the one line `npm start -- --help` and `.env.example` show for it. */
export const settings = {
  TEMPORAL_ADDRESS: {
    schema: hostPort.optional(),
    help: 'Existing Temporal cluster (host:port). Unset: npm start runs the embedded dev server.',
  },
  TEMPORAL_NAMESPACE: { schema: z.string().min(1).default('default'), help: 'Temporal namespace.' },
  TEMPORAL_DEV_PORT: { schema: port(7233), help: 'gRPC port of the embedded Temporal dev server.' },
  TEMPORAL_UI_PORT: { schema: port(8233), help: 'Web UI port of the embedded Temporal dev server.' },
  TEMPORAL_UI_URL: {
    schema: httpUrl.optional(),
    help: "Temporal Web UI of an existing cluster, for the monitor page's workflow links.",
  },
  TEMPORAL_CLI_PATH: {
    schema: z.string().min(1).optional(),
    help: 'Temporal CLI binary. Unset: `temporal` on PATH, else the one provisioned into .tools/.',
  },
  TEMPORAL_TEST_SERVER_PATH: {
    schema: z.string().min(1).optional(),
    help: 'Time-skipping test server binary (tests only). Unset: PATH, else .tools/.',
  },
  PLAT_TOOLS_DIR: {
    schema: z.string().min(1).default('.tools'),
    help: 'Where provisioning installs tools (Temporal CLI venv, OpenSearch), relative to the repo.',
  },
  PLAT_EMBEDDING_MODEL: {
    schema: z.enum(EMBEDDING_MODEL_KEYS).default(DEFAULT_EMBEDDING_MODEL),
    help: `Sentence-embedding model of the memory service (${EMBEDDING_MODEL_KEYS.join(', ')}); changing it re-embeds stored memories in the background (docs/memory-search.md#the-embedding-model).`,
  },
  PLAT_EMBEDDING_MODEL_DIR: {
    schema: z.string().min(1).optional(),
    help: 'Local models directory of the memory embedder (holds Xenova/<model>/, written by provisioning). Unset: <PLAT_TOOLS_DIR>/models.',
  },
  PLAT_TASK_QUEUE: {
    schema: z.string().min(1).default('plat-platform'),
    help: 'Base task queue: workflows run on it, and the workload queues are named <base>-agents, <base>-ingestion, <base>-operations, <base>-warehouse (Athena), <base>-host-<host id> and <base>-host-<host id>-queries.',
  },
  PLAT_WORKER_QUEUES: {
    schema: z.string().default('all').superRefine(checkedBy(parseWorkloads)),
    help: `Workloads this worker serves, comma-separated, or all (${WORKLOADS.join(', ')}); \`npm run worker -- --queues …\` sets it too.`,
  },
  PLAT_WORKER_SLOTS: {
    schema: z.string().default('').superRefine(checkedBy(parseSlots)),
    help: 'Activity slots per queue, e.g. agents=4,host=2 (queues: workflows, agents, ingestion, host, queries, warehouse, operations; defaults 50, 4, 10, 4, 8, 4, 4). agents bounds concurrent model calls; host bounds copies and warehouse stages; queries, /query answers from other gateways; warehouse, the stages polled from the shared queue with Athena.',
  },
  PLAT_WORKFLOW_BUNDLE_DIR: {
    schema: z.string().min(1).optional(),
    help: 'Where the worker caches its webpack bundle of the workflow code (by a hash of the code). Unset: <PLAT_DATA_DIR>/cache. Workers may share one.',
  },
  PLAT_WORKER_SHUTDOWN_GRACE_SECONDS: {
    schema: wholeNumber(30, 0, 3600, 'seconds, 0-3600'),
    help: "On SIGTERM, how long running activities may finish before they are cancelled (a copy then checkpoints). Keep the supervisor's stop timeout above it (compose stop_grace_period).",
  },
  PLAT_HOST_LOST_AFTER_SECONDS: {
    schema: wholeNumber(120, 10, 86400, 'seconds, 10-86400'),
    help: "A host whose workers have not been seen for this long is lost: its projects copy their source again on another host. Longer than a worker's restart.",
  },
  PLAT_INGEST_PART_ROWS: {
    schema: wholeNumber(1_000_000, 10_000, 1_000_000_000, 'rows, 10000-1000000000'),
    help: "Sources estimated above this many rows are copied in parts of about this size (small tables packed together, big tables cut into key ranges), taken side by side by the workers of the project's host.",
  },
  PLAT_INGEST_MAX_ROWS_PER_SECOND: {
    schema: wholeNumber(0, 0, 1_000_000_000, 'rows per second, 0-1000000000'),
    help: "The most rows per second one copy (a project's ingestion, or one of its parts) reads from the source, all its readers together, to spare a busy production database. 0: no cap.",
  },
  PLAT_SOURCE_ALLOW: {
    schema: sourceRules,
    help: 'Sources plat may connect to, comma-separated CIDRs (10.0.0.0/8, fd00::/8) and host names (db.example.com, *.db.example.com); every address a source resolves to must be in it. Unset: any address not denied.',
  },
  PLAT_SOURCE_DENY: {
    schema: sourceRules,
    help: "Sources plat may not connect to, as PLAT_SOURCE_ALLOW writes them; deny wins. Always denied besides: link-local and cloud metadata addresses, unspecified, broadcast and multicast, and the address and port of each of plat's own services.",
  },
  PLAT_DATA_DIR: {
    schema: z.string().min(1).default('.data'),
    help: 'Where plat keeps its state (Temporal SQLite file, warehouse, metadata), relative to the repo.',
  },
  PLAT_GATEWAY_HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    help: 'Address the gateway binds to.',
  },
  PLAT_GATEWAY_PORT: { schema: port(8080), help: 'Port of the platform gateway (REST, WebSocket, web UI).' },
  PLAT_PUBLIC_URL: {
    schema: z.string().url().optional(),
    help: 'Base URL users reach the gateway at, for links such as bi_dashboard_url (default http://localhost:<PLAT_GATEWAY_PORT>).',
  },
  PLAT_API_STAGE: {
    schema: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9_-]{0,31}$/,
        'a path segment such as prod (lower-case letters, digits, - and _)',
      )
      .optional(),
    help: 'Optional stage segment: project routes are also served under /<stage>/v1/projects.',
  },
  PLAT_QUERIES_PER_USER: {
    schema: wholeNumber(2, 1, 100, 'a whole number from 1 to 100'),
    help: 'Warehouse queries (/query) one user may have running at once, on all gateways together; more answer 429.',
  },
  PLAT_REFRESHES_PER_USER: {
    schema: wholeNumber(2, 1, 100, 'a whole number from 1 to 100'),
    help: "Refreshes and backfills of one owner's projects that may run at once, on all gateways together; more answer 429.",
  },
  PLAT_PROJECT_CREATES_PER_MINUTE: {
    schema: wholeNumber(20, 1, Number.MAX_SAFE_INTEGER, 'a whole number >= 1'),
    help: 'Project creations allowed per user and minute (429 beyond).',
  },
  PLAT_SELF_SIGNUP: { schema: bool(false), help: 'Allow POST /auth/signup (user-password accounts).' },
  PLAT_AUTH_ATTEMPTS_PER_IP: {
    schema: wholeNumber(30, 1, Number.MAX_SAFE_INTEGER, 'a whole number >= 1'),
    help: 'Sign-in and sign-up attempts allowed per client address and minute, counted across gateways in the metadata store (429 beyond).',
  },
  PLAT_LOGIN_FAILURES_PER_USER: {
    schema: wholeNumber(10, 1, Number.MAX_SAFE_INTEGER, 'a whole number >= 1'),
    help: 'Failed sign-ins (and sign-ups of a taken name) allowed per user name in PLAT_LOGIN_FAILURE_WINDOW_SECONDS, across gateways (429 beyond); a successful sign-in clears them.',
  },
  PLAT_LOGIN_FAILURE_WINDOW_SECONDS: {
    schema: wholeNumber(900, 10, 86400, 'seconds, 10-86400'),
    help: 'The window of PLAT_LOGIN_FAILURES_PER_USER.',
  },
  PLAT_TRUST_PROXY: {
    schema: z.string().superRefine(checkedBy(parseTrustProxy)).transform(parseTrustProxy).optional(),
    help: "The reverse proxies in front of the gateway, whose X-Forwarded-For names the client (per-address limits): a number of hops, or comma-separated addresses, CIDRs, loopback, linklocal, uniquelocal. Unset: the connection's address is the client's.",
  },
  PLAT_WS_CONNECTIONS_PER_USER: {
    schema: wholeNumber(20, 1, 100_000, 'a whole number, 1-100000'),
    help: 'WebSocket connections one user may hold open on one gateway at once (the upgrade answers 429 beyond).',
  },
  PLAT_TOKEN_TTL_SECONDS: {
    schema: wholeNumber(3600, 60, 7 * 86400, 'seconds, 60-604800'),
    help: 'Lifetime of the ID tokens plat issues.',
  },
  PLAT_OIDC_ISSUER: {
    schema: z
      .string()
      .url('an issuer URL, e.g. https://cognito-idp.eu-west-1.amazonaws.com/<pool>')
      .optional(),
    help: 'Also accept ID tokens from this OIDC issuer (verified through its JWKS).',
  },
  PLAT_OIDC_JWKS_URL: {
    schema: z.string().url('a JWKS URL').optional(),
    help: 'JWKS of PLAT_OIDC_ISSUER. Unset: <issuer>/.well-known/jwks.json.',
  },
  PLAT_OIDC_AUDIENCE: {
    schema: z.string().min(1).optional(),
    help: 'Audience (client id) external tokens must be minted for; required with PLAT_OIDC_ISSUER.',
  },
  PLAT_OIDC_OPERATOR_GROUP: {
    schema: z.string().min(1).max(256).optional(),
    help: "Members of this group (the issuer's groups or cognito:groups claim) are operators. Unset: none.",
  },
  PLAT_LLM_PROVIDER: {
    schema: z
      .enum(['anthropic', 'bedrock', 'offline'], { error: 'one of anthropic, bedrock, offline' })
      .optional(),
    help: 'Where the agents run. Unset: anthropic when ANTHROPIC_API_KEY is set, else offline.',
  },
  AWS_REGION: {
    schema: z.string().min(1).optional(),
    help: 'AWS region (Bedrock with PLAT_LLM_PROVIDER=bedrock; Glue, Athena and S3 with PLAT_WAREHOUSE_ENGINE=athena).',
  },
  PLAT_WAREHOUSE_ENGINE: {
    schema: z.enum(['duckdb', 'athena']).default('duckdb'),
    help: 'Warehouse engine of the modeled layers: duckdb (embedded, Parquet under PLAT_DATA_DIR) or athena (Glue + Athena + S3; needs AWS_REGION and PLAT_WAREHOUSE_BUCKET).',
  },
  PLAT_WAREHOUSE_MEMORY_LIMIT: {
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/, 'a size such as 512MB or 2GB')
      .default('1GB'),
    help: 'Memory each DuckDB session of a project may use (builds, checks, queries, profiles); beyond it DuckDB spills to a directory of its own.',
  },
  PLAT_WAREHOUSE_SPILL_LIMIT: {
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/, 'a size such as 2GB or 50GB')
      .default('10GB'),
    help: 'Disk each DuckDB session of a project may spill to past its memory limit (DuckDB alone would take up to 90% of the free space).',
  },
  PLAT_WAREHOUSE_PROCESSES: {
    schema: wholeNumber(4, 1, 256, 'a whole number of processes, 1-256'),
    help: 'DuckDB work (queries, dashboards, metric checks, builds, profiles) runs in child processes of each gateway and worker, this many at once; work beyond them waits its turn.',
  },
  PLAT_WAREHOUSE_WARM_PROCESSES: {
    schema: wholeNumber(1, 0, 256, 'a whole number of processes, 0-256'),
    help: 'Warehouse child processes kept started and idle, so work rarely waits for one to start (about 80 MB each; 0: a process starts for the first piece of work after each one that retired).',
  },
  PLAT_WAREHOUSE_PROCESS_MEMORY: {
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/, 'a size such as 1GB or 4GB')
      .optional(),
    help: "The OS limit on a warehouse child process's memory (unset: PLAT_WAREHOUSE_MEMORY_LIMIT plus 1 GiB). Work that needs more fails alone with an out-of-memory error.",
  },
  PLAT_WAREHOUSE_PROCESS_NICENESS: {
    schema: wholeNumber(0, 0, 19, 'a niceness, 0-19'),
    help: "How much lower the warehouse child processes' CPU priority is than the gateway's or worker's (0: the same). Above 0, a busy host serves the API first and DuckDB's work waits.",
  },
  PLAT_WAREHOUSE_BUCKET: {
    schema: z.string().min(3).optional(),
    help: 'S3 bucket of the warehouse data with PLAT_WAREHOUSE_ENGINE=athena.',
  },
  PLAT_WAREHOUSE_PREFIX: {
    schema: z.string().min(1).default('warehouse'),
    help: 'Key prefix of the warehouse inside PLAT_WAREHOUSE_BUCKET.',
  },
  PLAT_ATHENA_WORKGROUP: {
    schema: z.string().min(1).default('primary'),
    help: 'Athena workgroup with PLAT_WAREHOUSE_ENGINE=athena.',
  },
  PLAT_ATHENA_OUTPUT_LOCATION: {
    schema: z
      .string()
      .regex(/^s3:\/\//, 's3://bucket/prefix/')
      .optional(),
    help: 'Where Athena writes query results (default s3://<bucket>/<prefix>/_athena-results/).',
  },
  AWS_ENDPOINT_URL: {
    schema: httpUrl.optional(),
    help: 'Endpoint override for Glue, Athena and S3 (a local AWS such as moto or LocalStack).',
  },
  PLAT_BEDROCK_BASE_URL: {
    schema: httpUrl.optional(),
    help: 'Bedrock runtime endpoint override (VPC endpoint, proxy).',
  },
  ANTHROPIC_API_KEY: {
    schema: z.string().min(1).optional(),
    help: 'Use Claude for the agents. Unset: the deterministic offline analysts (labelled as such).',
  },
  ANTHROPIC_BASE_URL: { schema: httpUrl.optional(), help: 'Messages API base URL (a proxy or gateway).' },
  PLAT_MODEL_LARGE: {
    schema: z.string().min(1).default('claude-opus-4-1'),
    help: 'Model of the large tier (PRD agent).',
  },
  PLAT_MODEL_MEDIUM: {
    schema: z.string().min(1).default('claude-sonnet-4-5'),
    help: 'Model of the medium tier.',
  },
  PLAT_MODEL_SMALL: {
    schema: z.string().min(1).default('claude-haiku-4-5'),
    help: 'Model of the small tier.',
  },
  PLAT_WORKER_METRICS_PORT: { schema: port(9464), help: "Port of the worker's /metrics." },
  PLAT_WORKER_METRICS_HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    help: "Address the worker's /metrics binds to (0.0.0.0 for a Prometheus in another container).",
  },
  PLAT_MEMORY_HOST: {
    schema: z.string().min(1).default('127.0.0.1'),
    help: 'Address the memory service binds to. Non-loopback requires PLAT_MEMORY_API_KEYS.',
  },
  PLAT_MEMORY_PORT: { schema: port(8230), help: 'Port of the memory service.' },
  PLAT_MEMORY_API_KEYS: {
    schema: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean)
          : [],
      ),
    help: 'Comma-separated API keys for the memory service (Authorization: Bearer <key>).',
  },
  PLAT_MEMORY_AGENT_KEYS: {
    schema: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        try {
          parseMemoryAgentKeys(v);
        } catch (err) {
          ctx.addIssue({
            code: 'custom',
            message: `a JSON list of {name, key, users, agents, shared}, or a file of one; ${(err as Error).message}`,
          });
        }
      })
      .transform((v) => parseMemoryAgentKeys(v)),
    help: 'Scoped keys of the memory service: a JSON list (or the path of a JSON file) of {"name", "key" (16+ characters), "users": [...] or "*", "agents": [...] or "*", "shared": true to write the shared space}. A key acts only for the users and agents it names.',
  },
  PLAT_MEMORY_TOKEN_JWKS_URL: {
    schema: httpUrl.optional(),
    help: "Where the memory service fetches plat's public keys to accept users' ID tokens (default http://127.0.0.1:<PLAT_GATEWAY_PORT>/.well-known/jwks.json); a token acts for its own user only.",
  },
  PLAT_MEMORY_AUTOSHARE: {
    schema: bool(false),
    help: 'Copy long-term memories of category experience or procedural to the shared space on the server (the CLI does it otherwise).',
  },
  PLAT_MEMORY_WORKSPACES: {
    schema: z.string().optional(),
    help: 'Agent workspaces of the memory pipelines: a JSON list of {name, dir, user_id, agent_id}, or the path of a JSON file with one. Unset: one workspace <PLAT_DATA_DIR>/workspace for user and agent "default".',
  },
  PLAT_MEMORY_URL: {
    schema: httpUrl.optional(),
    help: 'The memory service as the pipelines and the CLI reach it (default http://<PLAT_MEMORY_HOST>:<PLAT_MEMORY_PORT>).',
  },
  PLAT_MEMORY_API_KEY: {
    schema: z.string().min(1).optional(),
    help: 'API key the pipelines send to the memory service when it requires one.',
  },
  PLAT_MEMORY_STORE: {
    schema: z.enum(['embedded', 'qdrant']).default('embedded'),
    help: 'Where memory vectors live: embedded (in-process index over the memory database) or qdrant (QDRANT_URL).',
  },
  QDRANT_URL: {
    schema: httpUrl.optional(),
    help: 'Qdrant REST endpoint for PLAT_MEMORY_STORE=qdrant (also runs the store contract tests against it).',
  },
  QDRANT_API_KEY: { schema: z.string().min(1).optional(), help: 'Qdrant API key, if the server needs one.' },
  QDRANT_COLLECTION: {
    schema: z.string().min(1).default('plat_memories'),
    help: 'Qdrant collection of the memory service.',
  },
  PLAT_METADATA_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'a PostgreSQL URL, e.g. postgres://plat:secret@db-host:5432/plat')
      .optional(),
    help: 'Shared metadata store of a fleet (PostgreSQL): projects, events, users, secrets. Unset: a file under PLAT_DATA_DIR, for one host. Needs PLAT_SECRET_KEY.',
  },
  PLAT_SECRET_KEY: {
    schema: z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        '32 bytes, base64-encoded (openssl rand -base64 32)',
      )
      .optional(),
    help: 'Key of the parameter store (AES-256-GCM), the same on every host of a fleet. Unset: a key file is created in the data dir (one host only; required with PLAT_METADATA_URL).',
  },
  PLAT_DEMO_SECRETS: {
    schema: bool(false),
    help: 'Accept the well-known try-out secrets of docker-compose.yml and compose.demo.env (refused otherwise). Never in a deployment.',
  },
  PLAT_SECRET_KEY_PREVIOUS: {
    schema: z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        '32 bytes, base64-encoded: the key PLAT_SECRET_KEY replaces',
      )
      .optional(),
    help: 'During a key change-over: the old parameter-store key, which still opens values sealed under it while `plat secrets rotate` seals them again under PLAT_SECRET_KEY; remove it once the rotation is done.',
  },
  PLAT_WITH_MONITORING: {
    schema: bool(false),
    help: 'Also start Prometheus and Alertmanager with the alarms (same as --with-monitoring).',
  },
  PROMETHEUS_PORT: { schema: port(9090), help: 'Port of the Prometheus started with --with-monitoring.' },
  ALERTMANAGER_PORT: { schema: port(9093), help: 'Port of the Alertmanager started with --with-monitoring.' },
  PLAT_ALERTS_WEBHOOK_TOKEN: {
    schema: z.string().min(24, 'at least 24 characters (openssl rand -hex 24)').optional(),
    help: "Bearer token Alertmanager's webhook presents at POST /v1/alerts. Unset: npm start -- --with-monitoring generates one in the data dir; otherwise the webhook answers 503.",
  },
  ALERT_EMAIL: {
    schema: z.string().email().optional(),
    help: 'Address the plat-alerts receiver e-mails every alarm to (through SMTP_SMARTHOST, or the SNS topic on AWS).',
  },
  PLAT_ALERTS_SNS: {
    schema: bool(false),
    help: 'Publish alarms to the SNS topic plat-alerts (created when missing, ALERT_EMAIL subscribed) instead of mailing through SMTP; needs AWS_REGION (AWS_ENDPOINT_URL for a local AWS).',
  },
  SMTP_SMARTHOST: {
    schema: hostPort.default('localhost:25'),
    help: "SMTP server (host:port) Alertmanager sends ALERT_EMAIL's mail through.",
  },
  SMTP_FROM: {
    schema: z.string().email().default('plat-alerts@localhost'),
    help: 'Sender of alarm e-mails.',
  },
  SMTP_USERNAME: { schema: z.string().min(1).optional(), help: 'SMTP user, if the server needs one.' },
  SMTP_PASSWORD: { schema: z.string().min(1).optional(), help: 'SMTP password, if the server needs one.' },
  SMTP_REQUIRE_TLS: {
    schema: bool(true),
    help: 'Send alarm e-mail only over STARTTLS (false for a local server without TLS).',
  },
  PLAT_ALARM_HOUR: {
    schema: z
      .string()
      .regex(/^[1-9]\d*(s|m|h)$/, 'a duration such as 30s or 1h')
      .default('1h'),
    help: "Test setting: the alarms' hour. Shorter, the day and the 5-minute periods shrink with it, and Prometheus scrapes and evaluates faster, so alarms fire and resolve in seconds.",
  },
  PLAT_DEMO_DB_PORT: { schema: port(3307), help: 'Port of the demo MariaDB (npm start -- --with-demo-db).' },
  PLAT_POSTGRES_PORT: {
    schema: port(5433),
    help: 'Port of the private PostgreSQL (npm start -- --with-postgres).',
  },
  PLAT_WITH_POSTGRES: {
    schema: bool(false),
    help: 'Keep the metadata in a private PostgreSQL (same as --with-postgres).',
  },
  PLAT_WITH_OPENSEARCH: {
    schema: bool(false),
    help: 'Also start a local OpenSearch (same as --with-opensearch).',
  },
  OPENSEARCH_PORT: {
    schema: port(9200),
    help: 'Port of the local OpenSearch started with --with-opensearch.',
  },
  OPENSEARCH_HOME: {
    schema: z.string().min(1).optional(),
    help: 'An existing OpenSearch 2.x install to run instead of provisioning one from Maven Central.',
  },
  OPENSEARCH_ISM_ZIP: {
    schema: z.string().min(1).optional(),
    help: 'Path to the index-management (ISM) plugin zip; Maven Central does not carry it.',
  },
  OPENSEARCH_URL: {
    schema: httpUrl.optional(),
    help: 'Existing OpenSearch cluster; overrides the local one.',
  },
  OPENSEARCH_USERNAME: {
    schema: z.string().min(1).optional(),
    help: 'Basic-auth user of OPENSEARCH_URL (or put user:password in the URL).',
  },
  OPENSEARCH_PASSWORD: {
    schema: z.string().min(1).optional(),
    help: 'Basic-auth password of OPENSEARCH_URL.',
  },
  OPENSEARCH_TOKEN: {
    schema: z.string().min(1).optional(),
    help: 'Bearer token for OPENSEARCH_URL (a proxy or an identity-aware front end).',
  },
  OPENSEARCH_AWS_REGION: {
    schema: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'an AWS region such as eu-west-1')
      .optional(),
    help: 'Sign requests to OPENSEARCH_URL with AWS SigV4 in this region (a managed domain or serverless collection); credentials from the AWS chain (AWS_ACCESS_KEY_ID, AWS_PROFILE, an instance or task role).',
  },
  OPENSEARCH_AWS_SERVICE: {
    schema: z
      .enum(['es', 'aoss'], { error: 'es (a managed domain) or aoss (a serverless collection)' })
      .optional(),
    help: 'es (Amazon OpenSearch Service domain) or aoss (OpenSearch Serverless); default from the URL, else es.',
  },
  PLAT_LIFECYCLE_INTERVAL: {
    schema: z
      .string()
      .regex(/^[1-9]\d*(s|m|h)$/, 'a duration such as 30s, 5m or 1h')
      .refine((v) => !/^[1-9]s$/.test(v), 'at least 10s')
      .default('5m'),
    help: 'How often the lifecycle engine runs over managed indices (clusters without ISM).',
  },
  LOG_LEVEL: {
    schema: z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
        error: 'one of trace, debug, info, warn, error, fatal, silent',
      })
      .default('info'),
    help: 'Log level of every plat process.',
  },
} as const;

type Settings = typeof settings;
/** The parsed, typed configuration. */
export type PlatConfig = { [K in keyof Settings]: z.output<Settings[K]['schema']> };

/** Thrown when an environment variable has a value plat cannot use; the message names each one. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; expected: string; got: string | undefined }[]) {
    super(
      'Invalid configuration:\n' +
        problems
          .map((p) => `  ${p.variable}=${JSON.stringify(p.got ?? '')}: expected ${p.expected}`)
          .join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/** Settings whose values an error message must not repeat. */
const SECRET_SETTINGS = new Set([
  'ANTHROPIC_API_KEY',
  'PLAT_MEMORY_API_KEYS',
  'PLAT_MEMORY_AGENT_KEYS',
  'PLAT_MEMORY_API_KEY',
  'PLAT_SECRET_KEY',
  'PLAT_SECRET_KEY_PREVIOUS',
  'PLAT_ALERTS_WEBHOOK_TOKEN',
  'QDRANT_API_KEY',
  'SMTP_PASSWORD',
  'OPENSEARCH_PASSWORD',
  'OPENSEARCH_TOKEN',
]);

/** A bad value as an error message may show it: secrets hidden, URLs without their password. */
function shown(name: string, raw: string | undefined): string | undefined {
  return SECRET_SETTINGS.has(name) ? hiddenValue(raw) : raw && redactUrl(raw);
}

/** Reads and validates every setting from `env`; throws {@link ConfigError} naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatConfig {
  const problems: ConstructorParameters<typeof ConfigError>[0] = [];
  const out: Record<string, unknown> = {};
  for (const [name, { schema }] of Object.entries(settings)) {
    const raw = env[name] === '' ? undefined : env[name];
    const parsed = (schema as z.ZodType).safeParse(raw);
    if (parsed.success) out[name] = parsed.data;
    else
      problems.push({
        variable: name,
        expected: parsed.error.issues[0]?.message ?? 'a valid value',
        got: shown(name, raw),
      });
  }
  // A fleet seals secrets with one key every host holds; a key file of one data directory is not that.
  if (
    out.PLAT_METADATA_URL &&
    !out.PLAT_SECRET_KEY &&
    !problems.some((p) => p.variable === 'PLAT_SECRET_KEY')
  )
    problems.push({
      variable: 'PLAT_SECRET_KEY',
      expected:
        'a key shared by every host when PLAT_METADATA_URL is set: 32 bytes, base64-encoded (openssl rand -base64 32)',
      got: undefined,
    });
  // Without an audience, a token the issuer minted for any of its clients would be accepted.
  if (
    out.PLAT_OIDC_ISSUER &&
    !out.PLAT_OIDC_AUDIENCE &&
    !problems.some((p) => p.variable === 'PLAT_OIDC_AUDIENCE')
  )
    problems.push({
      variable: 'PLAT_OIDC_AUDIENCE',
      expected:
        "plat's client id at the issuer when PLAT_OIDC_ISSUER is set: tokens minted for other clients must not sign in",
      got: undefined,
    });
  if (!out.PLAT_DEMO_SECRETS)
    for (const variable of wellKnownSecretsIn(env))
      problems.push({
        variable,
        expected:
          'a secret of your own, not the well-known try-out value (openssl rand -base64 32), or PLAT_DEMO_SECRETS=true for a local try-out',
        got: shown(variable, env[variable]),
      });
  // The previous key only opens: new values need the key that replaces it.
  if (
    out.PLAT_SECRET_KEY_PREVIOUS &&
    !out.PLAT_SECRET_KEY &&
    !problems.some((p) => p.variable === 'PLAT_SECRET_KEY')
  )
    problems.push({
      variable: 'PLAT_SECRET_KEY',
      expected: 'the new key when PLAT_SECRET_KEY_PREVIOUS is set (a change-over has both)',
      got: undefined,
    });
  if (problems.length) throw new ConfigError(problems);
  return out as PlatConfig;
}

/** Default of a setting as a string, or undefined when it has none. */
export function settingDefault(name: keyof Settings): string | undefined {
  const parsed = (settings[name].schema as z.ZodType).safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  const value = parsed.data;
  return Array.isArray(value) ? value.join(',') || undefined : String(value);
}
