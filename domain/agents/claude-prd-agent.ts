/**
 * The product-manager agent on Claude: explores the source through tools (list tables, describe a
 * table, sample rows, read-only SQL) and answers with the PRD as strict JSON, validated by the PRD
 * schema and held to the same checks as the offline analyst (prd-checks.ts); one repair round, then
 * the PRD is rejected with the reasons. Every call's token usage is recorded.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import type { Connection } from 'mysql2/promise';
import type { UsageRecord } from '../../shared/cost-ledger';
import { prdSchema, type Prd } from '../../shared/prd-schema';
import type { SourceSnapshot } from '../../shared/source-schema';
import { ReadOnlySqlError, runReadOnlySql } from '../sources/read-only-sql';
import type { ToolCallRecord } from '../sources/source-explorer';
import type { LlmSettings } from '../llm/llm-settings';
import { prdProblems } from './prd-checks';
import { withRefreshPlan } from './offline-analyst/refresh-plan';
import { messagesClient, type MessagesClient } from '../llm/model-client';

const MAX_TURNS = 24;

const TOOLS: Anthropic.Messages.Tool[] = [
  {
    name: 'list_tables',
    description: 'All base tables with row counts.',
    input_schema: { type: 'object', properties: {} },
  },
  {
    name: 'describe_table',
    description: 'Columns (type, nullability, key), primary key and foreign keys of one table.',
    input_schema: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
  },
  {
    name: 'sample_rows',
    description: 'Up to 5 sample rows of one table.',
    input_schema: { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] },
  },
  {
    name: 'run_sql',
    description:
      'Run one read-only SQL query (SELECT/SHOW/DESCRIBE/EXPLAIN/WITH) on the source; at most 50 rows.',
    input_schema: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
  },
];

const SYSTEM = `You are the product-manager agent of a data platform. Explore the MySQL source with the tools,
identify the business domain, then design a four-layer warehouse (ODS raw copies, DWD cleaned detail and
dimensions, DWS daily aggregates, ADS dashboard tables partitioned by stat_date), quality rules,
metrics (SQL over ADS tables) and dashboards. When done, answer with ONLY the PRD as one JSON object
(no prose, no code fences) with exactly these keys: version (1), title, summary, analyst
({kind:"claude", model}), source ({database, table_count, total_rows}), industry ({name, confidence 0-1,
evidence[]}; say "General business" when no industry is clear), fact_tables[], dimension_tables[],
table_roles[{table, role (event|header|line|snapshot|dimension|bridge|lookup|summary|other), evidence}],
facts[{table, kind (event|header|line|snapshot), event_time ({table, column, path[], evidence} or null for a
snapshot), ads_table, measures[], evidence}] (one per fact table), relationships[{table, columns[],
references_table, references_columns[], origin (declared|inferred), evidence}], layers ({ods[], dwd[], dws[],
ads[]} of tables {name, description, source_tables[], grain, fields[{name, type, description, source}],
partition_by[], union? (DWD only, see below)}), quality_rules[{name, layer, table, column?, kind (not_null|unique|range|referential|
freshness|accepted_values), params, severity (blocking|warning)}], metrics[{name, description, sql, ads_table,
unit, kind (series|breakdown), additive, dimension?}], dashboards[{title, description, metrics[], chart
(line|bar|area|table|stat)}]. Names are lower-case snake_case SQL identifiers.
Rules the PRD is checked against:
- Every fact is dated by its own business date (order, invoice, payment, shipment, transaction dates),
  never a birth, hire or expiry date, never an audit column such as last_update while a business date
  exists; a line without a date inherits its header's date through N:1 joins (event_time.table is the
  header, path lists the joins "line.col -> header.col", and the DWD joins the header in); a fact with no
  time at all is kind "snapshot" with event_time null. stat_date derives from the event time, never from
  CURRENT_DATE or the load time, for a dated fact.
- A DWD field's source is an expression over qualified source columns (orders.order_date); joins follow
  declared foreign keys and the relationships you list (add an "inferred" one for keys implied by names).
- Measures by meaning: sum money and quantities; on lines derive revenue = quantity * unit_price
  (* (1 - discount)); average unit prices and rates; count rows and distinct header ids. Never SUM or AVG a
  key, code, line number, year, phone or postal number, or flag.
- Decide from the values, not the names alone (describe_table gives value_evidence): a text column whose
  values are days (value_evidence.dates[col].format, e.g. "%m/%d/%Y") or integer year/month/day parts
  (dates[year].parts) is a date: date the fact by it with event_date
  CAST(try_strptime(regexp_extract(trim(t."col"), '<pattern>'), '<format>') AS DATE) (parts:
  try_strptime(concat_ws('-', year, month, day), '%Y-%m-%d')); a column set on every row that never repeats
  (unique_columns) is a key; references_shown are references the values prove (relationship origin
  "inferred", say the share found as evidence). Names may be in any language (fecha = date, cantidad =
  quantity, Einzelpreis = unit price).
- Compute money in the source's own arithmetic, in exact decimals: never ROUND a line before the sum.
- A level (stock on hand, a balance, a credit limit, a temperature) is never summed over a day's rows of a
  dated fact: average it. Where the name says nothing, the values tell (value_evidence.numbers): a number
  that moves by small steps along its series (steps.ratio near 0; series says what splits and orders the
  rows) or stays near a typical value (spread below 0.5) is a level; one skewed (spread 1 or more, often
  0) is a flow to sum; one constant_within a text column is that thing's attribute, never aggregated; a
  clock (hhmm) is a time of day. A dated table of readings (prices, temperatures) is a fact too.
- A roll-up whose rows are sums of another fact's rows (sales by month and store) is role "summary": it is
  no fact and gets no metrics or dashboards (they would count the same sales twice).
- A breakdown metric returns stat_date, dimension and value (one row per day and dimension value).
- One fact kept in several tables with the same columns whose names differ by a year, month, quarter,
  number or region (sales_2019, sales_2020; payments_eu, payments_us) is one fact: fact_tables and facts
  name its first table only, the others keep their role in table_roles with that evidence, and its DWD
  table lists every one in source_tables (first first) with "union": {part_columns: ["source_year"],
  members: [{table: "sales_2019", parts: ["2019"]}, ...], evidence}; its fields name the union by the
  first table (sales_2019.amount, sales_2019.source_year). Headers and their lines split alike
  (orders_2019 + order_lines_2019, ...) are one header and one line fact: the lines' DWD also has
  "joined_unions": [{part_columns, members, evidence}] for the headers, joined on the key and the part.
- A calendar table (one row per day: a date column and parts such as year, month, quarter, weekday) is a
  dimension; a fact whose only time is a key into it is dated through it (event_time.table is the
  calendar, path the join). An integer column of yyyymmdd days is a date:
  CAST(try_strptime(CAST(col AS VARCHAR), '%Y%m%d') AS DATE).
- Where the price is not on the row, a quantity times the referenced product's list price is
  "list-price revenue": say so in the measure and the metric's description. Money kept as text
  ('$1,234.50') is parsed to DECIMAL with regexp_replace and TRY_CAST; count what does not parse.`;

export interface ClaudePrdResult {
  prd: Prd;
  usage: UsageRecord[];
}

type OnToolCall = (call: ToolCallRecord & { input_tokens?: number; output_tokens?: number }) => void;

/** The conversation with the model so far, and what every call is recorded in. */
interface Conversation {
  client: MessagesClient;
  model: string;
  messages: Anthropic.Messages.MessageParam[];
  usage: UsageRecord[];
  onToolCall: OnToolCall;
}

export async function claudePrd(opts: {
  settings: LlmSettings;
  snapshot: SourceSnapshot;
  db: Connection;
  description: string;
  onToolCall: OnToolCall;
}): Promise<ClaudePrdResult> {
  const { settings, snapshot, db } = opts;
  const chat: Conversation = {
    client: messagesClient(settings),
    model: settings.models.large,
    messages: [
      {
        role: 'user',
        content: `Database: ${snapshot.database} (${snapshot.server_version}), ${snapshot.tables.length} tables.\nBusiness context from the user: ${opts.description || '(none)'}\nExplore it and write the PRD.`,
      },
    ],
    usage: [],
    onToolCall: opts.onToolCall,
  };
  let repaired = false;
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const res = await callModel(chat, turn);
    chat.messages.push({ role: 'assistant', content: res.content });
    if (res.stop_reason === 'tool_use') {
      chat.messages.push({
        role: 'user',
        content: await runToolUses(res.content, snapshot, db, opts.onToolCall),
      });
      continue;
    }

    const text = res.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const checked = checkPrd(text, chat.model, snapshot);
    if (checked.prd) return { prd: checked.prd, usage: chat.usage };
    // A second failure is final: retrying the activity would only buy the same PRD again.
    if (repaired)
      throw ApplicationFailure.nonRetryable(
        `Claude's PRD was rejected after one repair: ${checked.problems}`,
        'PrdRejected',
      );
    repaired = true;
    chat.messages.push({
      role: 'user',
      content: `That PRD is not valid: ${checked.problems}. Answer again with only the corrected PRD JSON.`,
    });
  }
  throw new Error(`the PRD agent did not finish within ${MAX_TURNS} model calls`);
}

/** One model call on the conversation, its usage recorded and reported as a `model_call`. */
async function callModel(chat: Conversation, turn: number): Promise<Anthropic.Messages.Message> {
  const started = Date.now();
  const res = await chat.client.messages.create({
    model: chat.model,
    max_tokens: 16_000,
    system: SYSTEM,
    tools: TOOLS,
    messages: chat.messages,
  });
  chat.usage.push({
    agent_name: 'product_manager',
    phase: 'prd',
    tier: 'large',
    model: res.model,
    input_tokens: res.usage.input_tokens,
    output_tokens: res.usage.output_tokens,
    call_count: 1,
  });
  chat.onToolCall({
    tool: 'model_call',
    params: { model: res.model, turn },
    summary: `stop_reason ${res.stop_reason}, ${res.usage.input_tokens} in / ${res.usage.output_tokens} out tokens`,
    duration_ms: Date.now() - started,
    input_tokens: res.usage.input_tokens,
    output_tokens: res.usage.output_tokens,
  });
  return res;
}

/** Runs each tool the model asked for, in order, reporting each call; their results answer the model. */
async function runToolUses(
  content: Anthropic.Messages.ContentBlock[],
  snapshot: SourceSnapshot,
  db: Connection,
  onToolCall: OnToolCall,
): Promise<Anthropic.Messages.ToolResultBlockParam[]> {
  const results: Anthropic.Messages.ToolResultBlockParam[] = [];
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    const t0 = Date.now();
    const params = block.input as Record<string, unknown>;
    const { text, isError, summary } = await runTool(block.name, params, snapshot, db);
    onToolCall({ tool: block.name, params, summary, duration_ms: Date.now() - t0 });
    results.push({ type: 'tool_result', tool_use_id: block.id, content: text, is_error: isError });
  }
  return results;
}

function checkPrd(text: string, model: string, snapshot: SourceSnapshot): { prd?: Prd; problems?: string } {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return { problems: 'the answer contains no JSON object' };
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    return { problems: `the JSON does not parse (${(err as Error).message})` };
  }
  // Who wrote it is ours to say, not the model's.
  if (json && typeof json === 'object') (json as Record<string, unknown>).analyst = { kind: 'claude', model };
  const parsed = prdSchema.safeParse(json);
  if (parsed.success) {
    // Valid JSON is not enough: the PRD must meet the standard the offline analyst meets.
    const problems = prdProblems(parsed.data, snapshot);
    // The refresh plan is read from the source, not asked of the model (docs/offline-analyst.md#change-detection).
    return problems.length
      ? { problems: problems.slice(0, 12).join('; ') }
      : { prd: withRefreshPlan(parsed.data, snapshot) };
  }
  return {
    problems: parsed.error.issues
      .slice(0, 10)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; '),
  };
}

async function runTool(
  name: string,
  input: Record<string, unknown>,
  snapshot: SourceSnapshot,
  db: Connection,
): Promise<{ text: string; isError: boolean; summary: string }> {
  const table = snapshot.tables.find((t) => t.name === input.table);
  switch (name) {
    case 'list_tables':
      return ok(
        snapshot.tables.map((t) => ({ table: t.name, rows: t.row_count })),
        `${snapshot.tables.length} tables`,
      );
    case 'describe_table':
      if (!table) return fail(`no table ${String(input.table)}`);
      return ok(
        {
          columns: table.columns,
          primary_key: table.primary_key,
          foreign_keys: table.foreign_keys,
          rows: table.row_count,
          value_evidence: valueEvidence(snapshot, table.name),
        },
        `${table.columns.length} columns`,
      );
    case 'sample_rows':
      if (!table) return fail(`no table ${String(input.table)}`);
      return ok(table.sample_rows, `${table.sample_rows.length} rows`);
    case 'run_sql':
      try {
        const { rows, truncated } = await runReadOnlySql(db, String(input.sql ?? ''));
        return ok({ rows, truncated }, `${rows.length} rows${truncated ? ' (truncated)' : ''}`);
      } catch (err) {
        return fail(
          err instanceof ReadOnlySqlError ? err.message : `query failed: ${(err as Error).message}`,
        );
      }
    default:
      return fail(`unknown tool ${name}`);
  }
}

/**
 * What the explorer measured of a table's values, for the model as for the offline analyst
 * (docs/offline-analyst.md#dates-read-from-values): each date's reading and figures, the columns
 * unique on every row, and the references its values show, both ways.
 */
function valueEvidence(snapshot: SourceSnapshot, table: string) {
  const t = snapshot.tables.find((x) => x.name === table)!;
  const shown = (snapshot.value_references ?? []).filter(
    (r) => r.table === table || r.references_table === table,
  );
  return {
    dates: t.date_stats ?? {},
    rows_set: t.non_null ?? {},
    unique_columns: t.unique_columns ?? [],
    // Levels and flows by behaviour (docs/offline-analyst.md#levels-and-flows).
    numbers: t.number_behaviour ?? {},
    series: t.value_series ?? null,
    references_shown: shown.map(
      (r) =>
        `${r.table}.${r.column} -> ${r.references_table}.${r.references_column} (${Math.round(100 * r.included)}% of ${r.sampled} sampled values found${r.named ? '; names agree' : ''})`,
    ),
  };
}

const ok = (value: unknown, summary: string) => ({ text: JSON.stringify(value), isError: false, summary });
const fail = (message: string) => ({ text: message, isError: true, summary: `error: ${message}` });
