import { sourceTable } from '../fixtures/source-tables';
import { ownCandidates, ownEventTime, rankCandidates } from '../../domain/agents/offline-analyst/event-time';
import { inheritedThrough } from '../../domain/agents/offline-analyst/header-references';
import { alignEventDates } from '../../shared/prd-event-dates';
import type { Prd } from '../../shared/prd-schema';
import type { SourceColumn, SourceTable } from '../../shared/source-schema';

const date = (name: string, nullable = false): SourceColumn => ({
  name,
  type: 'date',
  data_type: 'date',
  nullable,
  key: '',
});
const table = (name: string, columns: SourceColumn[], stats?: SourceTable['date_stats'], rows = 1000) =>
  sourceTable(name, rows, columns, stats ? { date_stats: stats } : {});

describe('event time by evidence', () => {
  const orders = table('orders', [date('order_date')], {
    order_date: { non_null: 1000, first: '2021-01-01', last: '2024-12-31', future: 0 },
  });

  it("ranks a line's sparse date of its own below its header's always-set date", () => {
    const lines = table('order_lines', [date('allocated_date', true)], {
      allocated_date: { non_null: 21, first: '2022-03-01', last: '2022-04-01', future: 0 },
    });
    const [own] = ownCandidates(lines);
    expect(own).toMatchObject({ support: 'sparse', weakness: 'set on 2% of rows' });
    const header = inheritedThrough(ownEventTime(orders), [])!;
    expect(rankCandidates([own, header])[0]).toBe(header);
  });

  it("prefers a fact's own event date to its header's, and its header's to a later moment", () => {
    const shipments = table('shipments', [date('shipped_at')], {
      shipped_at: { non_null: 1000, first: '2021-01-02', last: '2025-01-03', future: 0 },
    });
    const header = inheritedThrough(ownEventTime(orders), [])!;
    expect(rankCandidates([...ownCandidates(shipments), header])[0].column).toBe('shipped_at');
    const lineitem = table('lineitem', [date('l_shipdate'), date('l_commitdate')], {
      l_shipdate: { non_null: 1000, first: '2021-01-02', last: '2025-01-03', future: 0 },
      l_commitdate: { non_null: 1000, first: '2021-01-02', last: '2025-01-03', future: 0 },
    });
    expect(rankCandidates([...ownCandidates(lineitem), header])[0]).toBe(header);
  });

  it('rejects dates mostly in the future, placeholders and birth dates', () => {
    const t = table('visits', [date('visit_date'), date('follow_up_date'), date('birthdate')], {
      visit_date: { non_null: 1000, placeholder: 700, first: '2021-01-01', last: '2024-01-01', future: 0 },
      follow_up_date: { non_null: 1000, first: '2030-01-01', last: '2031-01-01', future: 1000 },
      birthdate: { non_null: 1000, first: '1950-01-01', last: '2000-01-01', future: 0 },
    });
    const found = ownCandidates(t);
    expect(found.map((c) => [c.column, c.support])).toEqual([
      ['visit_date', 'implausible'],
      ['follow_up_date', 'implausible'],
    ]);
  });

  it('counts a few placeholder dates as unset, not the column as implausible', () => {
    const t = table('orders', [date('order_date')], {
      order_date: { non_null: 1000, placeholder: 3, first: '2021-01-01', last: '2024-01-01', future: 0 },
    });
    expect(ownCandidates(t)[0]).toMatchObject({ support: 'complete', coverage: 0.997 });
  });

  it('falls back on declarations when the rows were not profiled', () => {
    const t = table('payments', [date('paid_on', true), date('created_on')]);
    expect(ownEventTime(t)!.column).toBe('created_on');
    expect(ownCandidates(t).map((c) => c.support)).toEqual(['partial', 'complete']);
  });

  it("makes the DWD event_date follow a person's edit of event_time", () => {
    const prd = {
      facts: [
        {
          table: 'lines',
          kind: 'line',
          event_time: {
            table: 'orders',
            column: 'placed_at',
            path: ['lines.order_id -> orders.id'],
            evidence: '',
          },
        },
      ],
      layers: {
        ods: [],
        dwd: [
          {
            name: 'dwd_lines_detail',
            source_tables: ['lines'],
            fields: [
              { name: 'event_date', type: 'DATE', source: 'CAST(lines.allocated AS DATE)', description: '' },
            ],
          },
        ],
        dws: [],
        ads: [],
      },
    } as unknown as Prd;
    const aligned = alignEventDates(prd);
    expect(aligned.layers.dwd[0].fields[0].source).toBe('CAST(orders.placed_at AS DATE)');
    expect(aligned.layers.dwd[0].source_tables).toEqual(['lines', 'orders']);
    expect(alignEventDates(aligned)).toEqual(aligned);
  });
});
