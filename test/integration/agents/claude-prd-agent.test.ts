/**
 * The Claude path of the PRD agent: the real generatePrd activity and the real Anthropic SDK,
 * against a local fake of the Messages API and the harness's real Sakila.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { dataDirDeps } from '../../../workers/platform-activities';
import {
  createAnalysisActivities,
  type GeneratePrdResult,
} from '../../../activities/analysis/analysis-activities';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { addUsage, emptyCost } from '../../../shared/cost-ledger';
import { tokenCostUsd } from '../../../shared/pricing';
import {
  apiKeyOf,
  startMessagesFake,
  type FakeRequest,
  type MessagesFake,
} from '../../fakes/anthropic-messages-fake';
import { harness } from '../../harness/harness-state';
import { newTestDataDir } from '../../harness/platform-gateway';
import { sakilaConnection } from '../../harness/sakila';
import type { LlmSettings } from '../../../domain/llm/llm-settings';

const lastToolResults = (req: FakeRequest) => {
  const last = req.body.messages[req.body.messages.length - 1];
  return (
    last.content as { type: string; tool_use_id: string; content: string; is_error?: boolean }[]
  ).filter((b) => b.type === 'tool_result');
};

/** The offline analyst's PRD for Sakila: a valid answer for the fake model to give. */
async function sakilaPrd() {
  const db = await sakilaConnection();
  try {
    return buildOfflinePrd(await exploreSource(db, 'sakila'));
  } finally {
    await db.end();
  }
}

/** Runs the real generatePrd activity on the harness's Sakila with the given model settings. */
async function runGeneratePrd(llm: LlmSettings, projectId: string, description = '') {
  const deps = await dataDirDeps(newTestDataDir(), { llm });
  const { host, port, user, password } = harness().mariadb;
  const passwordRef = await deps.secrets.put(`projects/${projectId}/db-password`, password);
  const result: GeneratePrdResult = await new MockActivityEnvironment().run(
    createAnalysisActivities(deps).generatePrd,
    {
      project_id: projectId,
      description,
      source: { jdbc_url: `jdbc:mysql://${host}:${port}/sakila`, username: user, password_ref: passwordRef },
    },
  );
  return { deps, result };
}

/** Runs `fn` with environment variables set, then restores them as they were. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('PRD agent on Claude (Messages API fake)', () => {
  let fake: MessagesFake;
  let validPrdJson: string;

  beforeAll(async () => {
    const prd = await sakilaPrd();
    validPrdJson = JSON.stringify({
      ...prd,
      title: 'Rental and revenue analytics (Claude)',
      analyst: { kind: 'claude', model: 'whatever-the-model-says' },
    });
    fake = await startMessagesFake([
      () => ({
        stop_reason: 'tool_use',
        usage: { input_tokens: 1200, output_tokens: 80 },
        content: [{ type: 'tool_use', id: 'tu_1', name: 'list_tables', input: {} }],
      }),
      () => ({
        stop_reason: 'tool_use',
        usage: { input_tokens: 2500, output_tokens: 120 },
        content: [
          { type: 'text', text: 'Looking at the rental fact.' },
          { type: 'tool_use', id: 'tu_2', name: 'describe_table', input: { table: 'rental' } },
          {
            type: 'tool_use',
            id: 'tu_3',
            name: 'run_sql',
            input: { sql: 'SELECT COUNT(*) AS n FROM rental' },
          },
          { type: 'tool_use', id: 'tu_4', name: 'run_sql', input: { sql: 'DELETE FROM rental' } },
        ],
      }),
      () => ({
        stop_reason: 'end_turn',
        usage: { input_tokens: 5000, output_tokens: 3000 },
        content: [{ type: 'text', text: '{"version": 1, "title": "incomplete"}' }],
      }),
      () => ({
        stop_reason: 'end_turn',
        usage: { input_tokens: 6000, output_tokens: 3500 },
        content: [{ type: 'text', text: validPrdJson }],
      }),
    ]);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('explores through tools, repairs an invalid PRD once, and records every call', async () => {
    const projectId = 'proj-20261122-claude01';
    const { deps, result } = await runGeneratePrd(
      {
        provider: 'anthropic',
        apiKey: 'sk-test-key',
        baseURL: fake.baseURL,
        models: { large: 'claude-test-large', medium: 'm', small: 's' },
      },
      projectId,
      'video rental stores',
    );

    expect(result.prd.analyst).toEqual({ kind: 'claude', model: 'claude-test-large' });
    expect(result.prd.title).toBe('Rental and revenue analytics (Claude)');

    // Real wire traffic: the key header, the model tier, the tools, and tool results from the real database.
    expect(fake.requests).toHaveLength(4);
    expect(apiKeyOf(fake.requests[0])).toBe('sk-test-key');
    expect(fake.requests[0].headers['anthropic-version']).toBeDefined();
    expect(fake.requests[0].body.model).toBe('claude-test-large');
    expect(fake.requests[0].body.tools?.map((t) => t.name)).toEqual([
      'list_tables',
      'describe_table',
      'sample_rows',
      'run_sql',
    ]);
    const listed = JSON.parse(lastToolResults(fake.requests[1])[0].content) as {
      table: string;
      rows: number;
    }[];
    expect(listed).toContainEqual({ table: 'payment', rows: 16044 });
    const [describe, count, write] = lastToolResults(fake.requests[2]);
    expect(JSON.parse(describe.content).primary_key).toEqual(['rental_id']);
    // The model gets the same value evidence as the offline analyst: each date's figures.
    const evidence = JSON.parse(describe.content).value_evidence;
    expect(evidence.dates.rental_date).toMatchObject({ non_null: 16044, first: '2005-05-24' });
    // BIGINT results arrive as exact strings (bigNumberStrings), as the agent sees them.
    expect(JSON.parse(count.content).rows).toEqual([{ n: '16044' }]);
    expect(write).toMatchObject({ is_error: true, content: expect.stringContaining('only SELECT') });
    const repair = fake.requests[3].body.messages.at(-1)!;
    expect(String(repair.content)).toMatch(/not valid: .*summary/);

    // Usage of all four calls, priced on the large tier.
    expect(result.usage).toHaveLength(4);
    const cost = addUsage(emptyCost('t0'), result.usage, 't1');
    expect(cost.by_agent[0]).toMatchObject({
      agent_name: 'product_manager',
      phase: 'prd',
      call_count: 4,
      input_tokens: 14_700,
      output_tokens: 6_700,
    });
    expect(cost.project_total.estimated_usd).toBe(tokenCostUsd('large', 14_700, 6_700));

    // The work log shows each tool call and each model call with its tokens.
    const logs = await deps.store.agentLogs(projectId);
    expect(logs.filter((l) => l.tool === 'model_call')).toHaveLength(4);
    expect(
      logs.find((l) => l.tool === 'run_sql' && l.params.sql === 'SELECT COUNT(*) AS n FROM rental')?.summary,
    ).toBe('1 rows');
    expect(logs.find((l) => l.tool === 'model_call')).toMatchObject({
      input_tokens: 1200,
      output_tokens: 80,
    });
  });
});

describe('PRD agent on Claude through Amazon Bedrock (InvokeModel fake)', () => {
  it('signs requests with SigV4 and gets the PRD back the same way', async () => {
    const prd = await sakilaPrd();
    const fake = await startMessagesFake([
      () => ({
        stop_reason: 'tool_use',
        usage: { input_tokens: 900, output_tokens: 40 },
        content: [{ type: 'tool_use', id: 'b1', name: 'list_tables', input: {} }],
      }),
      () => ({
        stop_reason: 'end_turn',
        usage: { input_tokens: 4000, output_tokens: 2500 },
        content: [{ type: 'text', text: JSON.stringify(prd) }],
      }),
    ]);
    try {
      const { result } = await withEnv(
        { AWS_ACCESS_KEY_ID: 'AKIDPLATTEST', AWS_SECRET_ACCESS_KEY: 'plat-test-secret' },
        () =>
          runGeneratePrd(
            {
              provider: 'bedrock',
              region: 'eu-west-1',
              baseURL: fake.baseURL,
              models: { large: 'anthropic.claude-test-v1:0', medium: 'm', small: 's' },
            },
            'proj-20261122-bedrock1',
          ),
      );
      expect(result.prd.analyst).toEqual({ kind: 'claude', model: 'anthropic.claude-test-v1:0' });
      expect(fake.requests).toHaveLength(2);
      expect(String(fake.requests[0].headers.authorization)).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDPLATTEST\/\d{8}\/eu-west-1\/bedrock\/aws4_request/,
      );
      expect(fake.requests[0].body.model).toBe('anthropic.claude-test-v1:0');
      expect(result.usage.map((u) => u.input_tokens)).toEqual([900, 4000]);
    } finally {
      await fake.close();
    }
  });
});

describe("Claude's PRD is held to the offline analyst's checks", () => {
  /** A schema-valid PRD that dates rentals by their audit column and sums a key. */
  async function sloppyPrdJson() {
    const prd = await sakilaPrd();
    const rental = prd.facts.find((f) => f.table === 'rental')!;
    rental.event_time = { table: 'rental', column: 'last_update', path: [], evidence: 'a timestamp' };
    const dws = prd.layers.dws.find((t) => t.name === 'dws_rental_daily')!;
    dws.fields.push({ name: 'sum_of_ids', type: 'BIGINT', source: 'SUM(customer_id)', description: '' });
    return JSON.stringify(prd);
  }
  const settings = (baseURL: string): LlmSettings => ({
    provider: 'anthropic',
    apiKey: 'sk-test-key',
    baseURL,
    models: { large: 'claude-test-large', medium: 'm', small: 's' },
  });
  const answer = (text: string) => () => ({
    stop_reason: 'end_turn' as const,
    usage: { input_tokens: 100, output_tokens: 100 },
    content: [{ type: 'text' as const, text }],
  });

  it('asks for one repair naming each broken rule, then accepts the repaired PRD', async () => {
    const sloppy = await sloppyPrdJson();
    const good = JSON.stringify(await sakilaPrd());
    const fake = await startMessagesFake([answer(sloppy), answer(good)]);
    try {
      const { result } = await runGeneratePrd(settings(fake.baseURL), 'proj-20261123-claude02');
      expect(result.prd.facts.find((f) => f.table === 'rental')!.event_time!.column).toBe('rental_date');
      const repair = String(fake.requests[1].body.messages.at(-1)!.content);
      expect(repair).toMatch(/rental\.last_update records row maintenance; use rental_date/);
      expect(repair).toMatch(/SUM\(customer_id\) aggregates rental\.customer_id, a key/);
    } finally {
      await fake.close();
    }
  });

  it('rejects a PRD that still breaks the rules after the repair, with the reasons, without retrying', async () => {
    const sloppy = await sloppyPrdJson();
    const fake = await startMessagesFake([answer(sloppy), answer(sloppy)]);
    try {
      const err = await runGeneratePrd(settings(fake.baseURL), 'proj-20261123-claude03').catch(
        (e: unknown) => e as Error & { nonRetryable?: boolean; type?: string },
      );
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/rejected after one repair: .*last_update/);
      expect(err).toMatchObject({ nonRetryable: true, type: 'PrdRejected' });
      expect(fake.requests).toHaveLength(2);
    } finally {
      await fake.close();
    }
  });
});
