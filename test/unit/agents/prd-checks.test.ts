/**
 * The checks every PRD meets find a summed key however the PRD writes its name: plain, qualified or
 * quoted, in a field's expression or in a metric's query, traced through the layers' copies.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { prdProblems } from '../../../domain/agents/prd-checks';
import type { SourceColumn, SourceSnapshot } from '../../../shared/source-schema';
import { column as sourceColumn } from '../../fixtures/source-tables';

/** Nullable unless it is the primary key. */
const column = (name: string, type: string, key: SourceColumn['key'] = '') =>
  sourceColumn(name, type, key, key !== 'PRI');

const snapshot: SourceSnapshot = {
  database: 'shop',
  server_version: '10.11',
  views: [],
  tables: [
    {
      name: 'Order Lines',
      row_count: 1_000,
      columns: [
        column('Line Id', 'int', 'PRI'),
        column('Line No', 'int'),
        { ...column('Sold On', 'date'), nullable: false },
        column('amount', 'decimal(10,2)'),
      ],
      primary_key: ['Line Id'],
      foreign_keys: [],
      sample_rows: [],
      date_stats: { 'Sold On': { non_null: 1_000, first: '2024-01-01', last: '2024-12-31', future: 0 } },
    },
  ],
};

describe('the PRD checks', () => {
  const prd = buildOfflinePrd(snapshot);
  const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === 'Order Lines')!;
  const dws = prd.layers.dws.find((t) => t.source_tables[0] === dwd.name)!;
  const lineNo = dwd.fields.find((f) => f.source === '"Order Lines"."Line No"')!;

  it('find nothing wrong in the analyst’s own PRD', () => {
    expect(lineNo).toBeDefined();
    expect(prdProblems(prd, snapshot)).toEqual([]);
  });

  it.each([
    ['a quoted source column', 'SUM("Order Lines"."Line No")'],
    ['a DWD copy traced to its source', () => `SUM(${lineNo.name})`],
    ['a DWD copy, quoted and averaged', () => `avg( "${lineNo.name}" )`],
  ])('find a line number summed in a field: %s', (_, source) => {
    const broken = structuredClone(prd);
    const table = [...broken.layers.dwd, ...broken.layers.dws].find(
      (t) => t.name === (typeof source === 'string' ? dwd.name : dws.name),
    )!;
    table.fields.push({
      name: 'summed_line_numbers',
      type: 'BIGINT',
      source: typeof source === 'string' ? source : source(),
      description: '',
    });
    expect(prdProblems(broken, snapshot).join('\n')).toMatch(
      /aggregates Order Lines\.Line No, a (line|key|code)/,
    );
  });

  it('find a line number summed in a metric’s query, quoted', () => {
    const broken = structuredClone(prd);
    const ads = broken.layers.ads.find((t) => t.source_tables[0] === dws.name)!;
    ads.fields.push({ name: 'line_no', type: 'INT', source: 'line_no', description: '' });
    broken.layers.dws
      .find((t) => t.name === dws.name)!
      .fields.push({ name: 'line_no', type: 'INT', source: lineNo.name, description: '' });
    broken.metrics.push({
      ...broken.metrics[0],
      name: 'line_total',
      ads_table: ads.name,
      sql: `SELECT stat_date, SUM(DISTINCT "line_no") AS value FROM ${ads.name} GROUP BY 1`,
    });
    expect(prdProblems(broken, snapshot).join('\n')).toMatch(
      /metric line_total: SUM\(line_no\) aggregates Order Lines\.Line No/,
    );
  });
});
