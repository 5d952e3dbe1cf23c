/**
 * The PRD stage's activity: the product-manager agent explores every table of the source and writes
 * the PRD (Claude when configured, else the offline analyst, which says so in its usage record),
 * streaming its work log as project events while it works.
 */
import { ApplicationFailure, activityInfo, heartbeat } from '@temporalio/activity';
import type { Connection } from 'mysql2/promise';
import { claudePrd } from '../../../domain/agents/claude-prd-agent';
import { buildOfflinePrd, OFFLINE_ANALYST_VERSION } from '../../../domain/agents/offline-analyst/prd-builder';
import type { LlmSettings } from '../../../domain/llm/llm-settings';
import { OrderedWrites } from '../../../domain/metadata-store/ordered-writes';
import type { AgentLogEntry, ProjectStore } from '../../../domain/metadata-store/project-store';
import type { LogShipper } from '../../../domain/search-ops/plat-logs/log-shipper';
import type { ParameterStore } from '../../../domain/secrets/parameter-store';
import {
  emptySourceMessage,
  exploreSource,
  type ToolCallRecord,
} from '../../../domain/sources/source-explorer';
import { withBoundedSource } from '../../../domain/sources/bounded-source';
import type { SourcePolicy } from '../../../domain/sources/source-policy';
import type { UsageRecord } from '../../../shared/cost-ledger';
import type { Prd } from '../../../shared/prd-schema';
import type { AnalysisProjectInput, ProjectEvent } from '../../../shared/project-model';
import { connectOrExplain, connectorOf, misbehavingSourceFailsForGood } from '../source-access';

export interface PrdDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  /** Which sources the agent may connect to (checked before every connection). */
  sources: SourcePolicy;
  /** Claude settings; absent, the agent is the deterministic offline analyst. */
  llm?: LlmSettings;
  /** Where agent logs also go when OpenSearch is configured (the `plat-agent-logs` alias). */
  agentLogs?: LogShipper;
}

export interface GeneratePrdRequest {
  project_id: string;
  description: string;
  source: AnalysisProjectInput['source'];
}

export interface GeneratePrdResult {
  prd: Prd;
  usage: UsageRecord[];
}

export const PRODUCT_MANAGER = 'product_manager';

export async function generatePrd(
  { store, secrets, sources, llm, agentLogs }: PrdDeps,
  req: GeneratePrdRequest,
): Promise<GeneratePrdResult> {
  const source = await connectorOf(secrets, req.source, sources);
  const db = await connectOrExplain(source);
  const log = prdWorkLog(store, agentLogs, req.project_id, activityInfo().attempt);
  const onToolCall = log.onToolCall;
  // Model calls can be slow: keep the heartbeat going independently of tool calls.
  const beat = setInterval(() => heartbeat({ tool_calls: log.toolCalls() }), 15_000);
  try {
    return await withBoundedSource(db, EXPLORING_BOUNDS, (bounded) => explore(bounded));
  } catch (err) {
    throw misbehavingSourceFailsForGood(err);
  } finally {
    clearInterval(beat);
    log.flush();
    await db.end().catch(() => undefined);
    await log.drain();
  }

  async function explore(db: Connection): Promise<GeneratePrdResult> {
    const snapshot = await exploreSource(db, source.target.database, { onToolCall });
    if (snapshot.tables.length === 0) {
      // Nothing to analyse, and a retry will not change that.
      throw ApplicationFailure.nonRetryable(emptySourceMessage(source.target.database), 'SourceEmpty');
    }
    if (llm)
      return await claudePrd({ settings: llm, snapshot, db, description: req.description, onToolCall });
    return {
      prd: buildOfflinePrd(snapshot, req.description),
      usage: [
        {
          agent_name: PRODUCT_MANAGER,
          phase: 'prd',
          tier: 'large',
          model: OFFLINE_ANALYST_VERSION,
          input_tokens: 0,
          output_tokens: 0,
          call_count: 0,
        },
      ],
    };
  }
}

/**
 * The product manager's work log of one attempt: each tool call kept as a log entry and a project
 * event, written in batches of ten as the agent works (not only when it is done), in order.
 */
function prdWorkLog(
  store: PrdDeps['store'],
  agentLogs: PrdDeps['agentLogs'],
  projectId: string,
  attempt: number,
) {
  let seq = 0;
  const logs: AgentLogEntry[] = [];
  const events: ProjectEvent[] = [];
  const writes = new OrderedWrites();
  const onToolCall = (call: ToolCallRecord & { input_tokens?: number; output_tokens?: number }) => {
    const key = `${projectId}:prd:a${attempt}:t${++seq}`;
    const timestamp = new Date().toISOString();
    logs.push({
      log_key: key,
      project_id: projectId,
      agent: PRODUCT_MANAGER,
      phase: 'prd',
      ...call,
      timestamp,
    });
    events.push({
      event_key: key,
      project_id: projectId,
      event_type: 'log_entry',
      phase: 'prd',
      status: 'running',
      message: `${call.tool}(${JSON.stringify(call.params)}): ${call.summary}`,
      timestamp,
      payload: { agent: PRODUCT_MANAGER, ...call },
    });
    // Stream the work log as it happens, not only when the agent is done.
    if (logs.length >= 10) flush();
  };
  const flush = () => {
    const batch = logs.splice(0);
    const batchEvents = events.splice(0);
    writes.push(async () => {
      await store.addAgentLogs(batch);
      await store.addEvents(batchEvents);
    });
    // The log key as the document id: a retried activity re-sends the same documents, as no-ops.
    for (const e of batch) agentLogs?.ship({ ...e, '@timestamp': e.timestamp }, e.log_key);
  };
  return { onToolCall, flush, toolCalls: () => seq, drain: () => writes.drain() };
}

/**
 * What exploring may receive from a source, and how long it may wait on one statement: generous
 * for a catalogue of thousands of tables and their samples (and for a scan of a large table, which
 * sends nothing until it ends), far below what would hurt a worker.
 */
const EXPLORING_BOUNDS = { maxBytes: 256_000_000, idleMs: 600_000 };
