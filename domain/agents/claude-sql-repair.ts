/**
 * The data-modeling agent's repair step on Claude: given a generated SELECT that the warehouse
 * engine rejected, the engine's reason and the columns of the tables it may read, Claude answers
 * with a corrected SELECT. Used only when a model is configured; offline, the failing statement is
 * reported as is.
 */
import type { UsageRecord } from '../../shared/cost-ledger';
import type { PrdTable } from '../../shared/prd-schema';
import type { LlmSettings } from '../llm/llm-settings';
import { messagesClient } from '../llm/model-client';

export const DATA_MODELER = 'data_modeler';

const SYSTEM = `You repair SQL for a DuckDB data warehouse. You get a SELECT that failed, the engine's error,
the table it must produce (field names, types, meaning) and the columns of the tables it may read
(fully qualified as database."table"). Answer with ONLY the corrected SELECT statement: no prose, no code
fences, no trailing semicolon. Keep every output column name and type of the intended table.`;

export interface SqlRepairRequest {
  settings: LlmSettings;
  layer: string;
  table: PrdTable;
  statement: string;
  reason: string;
  /** Tables the SELECT may read: qualified name and columns. */
  readable: { name: string; columns: { name: string; type: string }[] }[];
}

export interface SqlRepairResult {
  select: string;
  usage: UsageRecord;
}

export async function claudeRepairSelect(req: SqlRepairRequest): Promise<SqlRepairResult> {
  const model = req.settings.models.medium;
  const res = await messagesClient(req.settings).messages.create({
    model,
    max_tokens: 4096,
    system: SYSTEM,
    messages: [
      {
        role: 'user',
        content: [
          `Layer: ${req.layer}. Table to produce: ${req.table.name} (${req.table.description}).`,
          `Intended fields:\n${req.table.fields.map((f) => `- ${f.name} ${f.type}: ${f.description} (source: ${f.source})`).join('\n')}`,
          `Readable tables:\n${req.readable.map((t) => `- ${t.name}(${t.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`).join('\n')}`,
          `Failing SELECT:\n${req.statement}`,
          `Engine error: ${req.reason}`,
        ].join('\n\n'),
      },
    ],
  });
  const text = res.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('')
    .trim()
    .replace(/^```(?:sql)?\s*/i, '')
    .replace(/\s*```$/, '')
    .replace(/;\s*$/, '');
  if (!/^(select|with)\b/i.test(text))
    throw new Error(`the model did not answer with a SELECT: ${text.slice(0, 200)}`);
  return {
    select: text,
    usage: {
      agent_name: DATA_MODELER,
      phase: 'data_modeling',
      tier: 'medium',
      model,
      input_tokens: res.usage.input_tokens,
      output_tokens: res.usage.output_tokens,
      call_count: 1,
    },
  };
}
