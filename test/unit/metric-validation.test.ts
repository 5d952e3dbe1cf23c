/**
 * The metric checks (README: query building): money may be negative (a day of refunds, a ledger's
 * credits), a count never is.
 */
import { validateMetrics } from '../../domain/warehouse/metric-validation';
import type { WarehouseEngine } from '../../domain/warehouse/warehouse-engine';
import type { Prd, PrdMetric } from '../../shared/prd-schema';

/** An engine whose every query returns these rows. */
const engine = (rows: Record<string, unknown>[]) =>
  ({
    withQuerySession: async (_project: string, work: (query: unknown) => Promise<unknown>) =>
      work(async () => ({ rows, columns: Object.keys(rows[0] ?? {}) })),
  }) as unknown as WarehouseEngine;

const metric = (unit: string): PrdMetric => ({
  name: `m_${unit}`,
  description: 'd',
  sql: 'SELECT stat_date, v AS value FROM ads_t',
  ads_table: 'ads_t',
  unit,
  kind: 'series',
  additive: true,
});
const check = async (unit: string, values: number[]) =>
  (
    await validateMetrics(
      engine(values.map((value, i) => ({ stat_date: `2024-01-0${i + 1}`, value }))),
      'p',
      { metrics: [metric(unit)] } as unknown as Prd,
    )
  ).results[0];

describe('metric checks', () => {
  it('take a day of refunds as money', async () => {
    expect(await check('currency', [120.5, -12.5, 3])).toMatchObject({ valid: true, min: -12.5 });
  });

  it('refuse a negative count', async () => {
    expect(await check('count', [4, -1])).toMatchObject({ valid: false, reason: 'negative count values' });
  });

  it('give the metrics after one that does not run a fresh session, so it fails alone', async () => {
    const sessions: number[] = [];
    const rows = [{ stat_date: '2024-01-01', value: 1 }];
    const counting = {
      withQuerySession: async (_project: string, work: (query: unknown) => Promise<unknown>) => {
        const id = sessions.length;
        sessions.push(id);
        return work(async (sql: string) => {
          if (sql.includes('broken')) throw new Error('the session is gone');
          return { rows, columns: ['stat_date', 'value'] };
        });
      },
    } as unknown as WarehouseEngine;
    const metrics = [
      metric('count'),
      { ...metric('count'), name: 'bad', sql: 'SELECT broken' },
      metric('count'),
    ];
    const report = await validateMetrics(counting, 'p', { metrics } as unknown as Prd);
    expect(report.results.map((r) => r.valid)).toEqual([true, false, true]);
    expect(report.results[1].reason).toBe('does not run: the session is gone');
    expect(sessions).toHaveLength(2);
  });
});
