/**
 * Say when unsure (docs/offline-analyst.md#say-when-unsure): the PRD lists the decisions whose
 * evidence is weak, weakest first, with what else they could be; a source where nothing could be
 * dated says so and lists every column that could hold a day, rather than completing without a series.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { prdSchema } from '../../../shared/prd-schema';
import type { DateColumnStats, SourceSnapshot } from '../../../shared/source-schema';
import { column, sourceTable } from '../../fixtures/source-tables';

/** A flat export: one wide table, no keys, its day kept as text in `stats`' reading. */
function flatExport(stats: DateColumnStats | undefined): SourceSnapshot {
  const table = sourceTable(
    'sales export',
    1000,
    [
      column('Order Date', 'varchar(10)'),
      column('Customer Name', 'varchar(60)'),
      column('Region', 'varchar(20)'),
      column('Quantity', 'int'),
      column('Sales', 'decimal(12,2)'),
    ],
    stats ? { date_stats: { 'Order Date': stats } } : {},
  );
  return { database: 'exports', server_version: '10.11', tables: [table], views: [] };
}

const figures = { non_null: 1000, placeholder: 0, first: '2024-01-02', last: '2024-12-11', future: 0 };

describe('decisions to check before approving', () => {
  it('is sure of a day read from text in one order only, and dates the flat table by it', () => {
    const prd = buildOfflinePrd(flatExport({ encoding: 'text', format: '%m/%d/%Y', ...figures }));
    const fact = prd.facts.find((f) => f.table === 'sales export')!;
    expect(fact.event_time?.column).toBe('Order Date');
    expect(fact.event_time_candidates[0].reads_as).toEqual({ encoding: 'text', format: '%m/%d/%Y' });
    expect(prd.review.filter((r) => r.decision === 'event_time')).toEqual([]);
    expect(prdSchema.safeParse(prd).success).toBe(true);
  });

  it('lists a day whose day/month order the values could not tell, with its confidence', () => {
    const prd = buildOfflinePrd(
      flatExport({ encoding: 'text', format: '%d/%m/%Y', ambiguous: true, ...figures }),
    );
    const item = prd.review.find((r) => r.decision === 'event_time' && r.subject === 'sales export');
    expect(item).toMatchObject({ confidence: 0.5 });
    expect(item!.evidence).toMatch(/could as well be read month first/);
  });

  it('says when no fact can be dated, naming the columns it saw', () => {
    const prd = buildOfflinePrd(flatExport(undefined));
    const item = prd.review.find((r) => r.decision === 'no_series');
    expect(item).toMatchObject({ subject: 'exports', confidence: 0.2 });
    expect(item!.evidence).toMatch(/no column holds days/);
    // Weakest first.
    expect(prd.review.map((r) => r.confidence)).toEqual([...prd.review.map((r) => r.confidence)].sort());
  });

  it('refuses a reading with a format it does not know (a hostile edit)', () => {
    const prd = buildOfflinePrd(flatExport({ encoding: 'text', format: '%m/%d/%Y', ...figures }));
    const edited = structuredClone(prd);
    edited.facts[0].event_time_candidates[0].reads_as = {
      encoding: 'text',
      format: "%Y'); DROP TABLE x; --",
    };
    const parsed = prdSchema.safeParse(edited);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/unknown day format/);
  });
});
