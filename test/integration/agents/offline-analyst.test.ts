import type { Connection } from 'mysql2/promise';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { exploreSource, type ToolCallRecord } from '../../../domain/sources/source-explorer';
import { prdSchema, type Prd } from '../../../shared/prd-schema';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { sakilaConnection } from '../../harness/sakila';

describe('offline schema analyst on Sakila', () => {
  let db: Connection;
  let snapshot: SourceSnapshot;
  let prd: Prd;
  const calls: ToolCallRecord[] = [];

  beforeAll(async () => {
    db = await sakilaConnection();
    snapshot = await exploreSource(db, 'sakila', { onToolCall: (c) => calls.push(c) });
    prd = buildOfflinePrd(snapshot);
  });
  afterAll(async () => {
    await db?.end();
  });

  it('explores every table with keys, foreign keys, exact counts and samples', () => {
    expect(snapshot.tables).toHaveLength(16);
    const rental = snapshot.tables.find((t) => t.name === 'rental')!;
    expect(rental.row_count).toBe(16044);
    expect(rental.primary_key).toEqual(['rental_id']);
    expect(rental.foreign_keys.map((fk) => fk.references_table).sort()).toEqual([
      'customer',
      'inventory',
      'staff',
    ]);
    expect(rental.sample_rows).toHaveLength(5);
    expect(snapshot.tables.find((t) => t.name === 'staff')!.sample_rows[0].picture).toMatch(
      /^<\d+ bytes>$|^null$/,
    );
    expect(snapshot.views).toContain('customer_list');
    // The work log names each tool call with its parameters and a result summary.
    // Counting rows also counts where each nullable key is set (payment.rental_id is NULL on 5).
    expect(calls.find((c) => c.tool === 'count_rows' && c.params.table === 'payment')?.summary).toBe(
      '16044 rows; rental_id set on 100%; totals of 1 numeric columns',
    );
  });

  it('recognises a DVD rental business with rental and payment as facts', () => {
    expect(prd.industry.name).toBe('DVD rental / retail');
    expect(prd.industry.confidence).toBeGreaterThanOrEqual(0.7);
    expect(prd.industry.evidence).toEqual(expect.arrayContaining(['table film', 'table rental']));
    expect([...prd.fact_tables].sort()).toEqual(['payment', 'rental']);
    expect(prd.dimension_tables).toEqual(expect.arrayContaining(['customer', 'film', 'inventory', 'staff']));
    expect(prd.dimension_tables).not.toContain('film_actor');
    expect(prd.analyst.kind).toBe('offline_schema_analyst');
  });

  it('designs four layers with ADS partitioned by stat_date and metrics on ADS', () => {
    expect(prd.layers.ods).toHaveLength(16);
    expect(prd.layers.dwd.map((t) => t.name)).toEqual(
      expect.arrayContaining(['dwd_rental_detail', 'dwd_payment_detail', 'dwd_dim_customer']),
    );
    expect(prd.layers.ads.every((t) => t.partition_by.includes('stat_date'))).toBe(true);
    const revenue = prd.metrics.find((m) => m.name === 'payment_total_amount');
    expect(revenue).toMatchObject({ ads_table: 'ads_payment_kpi_daily', unit: 'currency' });
    expect(prd.metrics.map((m) => m.name)).toEqual(
      expect.arrayContaining(['rental_count', 'payment_count', 'rental_distinct_customer_count']),
    );
    // The rental detail names the film, reached through inventory; credentials stay out of the model.
    expect(prd.layers.dwd.find((t) => t.name === 'dwd_rental_detail')!.fields.map((f) => f.name)).toContain(
      'film_title',
    );
    expect(prd.layers.dwd.find((t) => t.name === 'dwd_dim_staff')!.fields.map((f) => f.name)).not.toContain(
      'password',
    );
    const paymentAmount = prd.layers.ods
      .find((t) => t.name === 'ods_payment')!
      .fields.find((f) => f.name === 'amount');
    expect(paymentAmount?.type).toBe('DECIMAL(5,2)');
    expect(prd.dashboards.length).toBeGreaterThanOrEqual(2);
  });

  it('proposes quality rules a data analyst would expect', () => {
    const rule = (name: string) => prd.quality_rules.find((r) => r.name === name);
    expect(rule('rental.rental_id is unique')).toMatchObject({ kind: 'unique', severity: 'blocking' });
    expect(rule('payment.amount is not negative')).toMatchObject({ kind: 'range', params: { min: 0 } });
    expect(rule('rental.customer_id references customer')).toMatchObject({
      kind: 'referential',
      params: { references_table: 'ods_customer' },
    });
    expect(rule('film.rating in its enum values')?.params.values).toEqual(['G', 'PG', 'PG-13', 'R', 'NC-17']);
    expect(rule('rental has recent rental_date')).toMatchObject({ kind: 'freshness' });
  });

  it('produces a PRD the schema accepts, and the schema rejects a broken edit', () => {
    expect(prdSchema.safeParse(prd).success).toBe(true);
    const broken = structuredClone(prd) as Record<string, unknown> & Prd;
    broken.layers.ads[0].partition_by = [];
    (broken as unknown as Record<string, unknown>).surprise = true;
    const result = prdSchema.safeParse(broken);
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    expect(messages).toMatch(/surprise/);
  });

  it("lists each fact's event-time candidates with figures, and refuses an edit naming no date", () => {
    const rental = prd.facts.find((f) => f.table === 'rental')!;
    expect(rental.event_time_candidates[0]).toMatchObject({
      table: 'rental',
      column: 'rental_date',
      support: 'complete',
      coverage: 1,
    });
    expect(rental.event_time_candidates.map((c) => c.column)).toContain('return_date');
    const problems = (edit: (p: Prd) => void) => {
      const edited = structuredClone(prd);
      edit(edited);
      const result = prdSchema.safeParse(edited);
      return result.success ? [] : result.error.issues.map((i) => i.message);
    };
    const dateOf = (p: Prd) => p.facts.find((f) => f.table === 'rental')!.event_time!;
    expect(problems((p) => (dateOf(p).column = 'return_date'))).toEqual([]);
    expect(problems((p) => (dateOf(p).column = 'customer_id'))).toEqual([
      'rental.customer_id is INTEGER, not a date or timestamp',
    ]);
    expect(problems((p) => (dateOf(p).column = 'returned'))).toEqual(['rental has no column returned']);
    expect(problems((p) => Object.assign(dateOf(p), { table: 'payment', column: 'payment_date' }))).toEqual([
      'rental is dated by payment: say the joins (path) from rental to payment',
    ]);
  });
});
