/**
 * The offline analyst's PRD is valid on any source with readable tables (issue: a PRD that fails its
 * own schema fails the project): for generated schemas with random names, table families split by
 * year or region, keys between them, optional dates, optional headers and lines split alike and an
 * optional calendar, the PRD always passes its own validation.
 */
import fc from 'fast-check';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { prdSchema } from '../../../shared/prd-schema';
import { validOfflinePrd } from '../../../domain/agents/offline-analyst/prd-repair';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { foreignKey, sourceTable } from '../../fixtures/source-tables';

const column = (name: string, type: string, key: SourceColumn['key'] = ''): SourceColumn => ({
  name,
  type,
  data_type: type.replace(/\(.*$/, '').replace(/ .*$/, ''),
  nullable: key !== 'PRI',
  key,
});

const WORDS = [
  'orders',
  'order_items',
  'sales',
  'customers',
  'products',
  'stores',
  'payments',
  'Order Lines',
  'x',
  // Names whose derived tables or fields meet another's: `sales` → `dws_sales_breakdown_daily` is
  // also `sales_breakdown`'s daily table; `1a` and `t_1a` make one ODS field name.
  'sales_breakdown',
  'dim_sales',
  'sales_detail',
  '1a',
  't_1a',
];
const SUFFIXES = ['', '_2019', '_2020', '_2021', '_eu', '_us', '_1', '_2', '_archive'];
const tableName = fc.oneof(
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SUFFIXES)).map(([w, s]) => w + s),
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000')),
);
const extraColumn = fc.oneof(
  fc.constantFrom(
    column('amount', 'decimal(10,2)'),
    column('total', 'decimal(12,2)'),
    column('quantity', 'int'),
    column('unit_price', 'decimal(8,2)'),
    column('created_at', 'datetime'),
    column('order_date', 'date'),
    column('name', 'varchar(40)'),
    column('status', "enum('open','done')"),
    column('region', 'varchar(10)'),
    column('discount', 'decimal(4,2)'),
    column('price_cents', 'int'),
    column('1a', 'int'),
    column('t_1a', 'int'),
  ),
  fc.string({ minLength: 1, maxLength: 10 }).map((n) => column(n, 'varchar(20)')),
);

/**
 * Headers and their lines kept in one table per part (`orders_2019`, `order_lines_2019`…): named
 * by generated words, each line table keyed to the header table of the part it is given (its own,
 * or another's), some tables empty.
 */
const headerLineFamily = fc
  .record({
    header: fc.constantFrom('orders', 'sales', 'Order Lines', 'x', 'sales_detail'),
    line: fc.constantFrom('order_items', 'order_lines', 'sales_breakdown', 'payments'),
    parts: fc.constantFrom(['_2019', '_2020', '_2021'], ['_eu', '_us'], ['_2020', '_2021']),
    // Mostly its own part (-1), sometimes another's.
    keyedTo: fc.array(fc.constantFrom(-1, -1, -1, -1, 0, 1, 2), { minLength: 3, maxLength: 3 }),
    rows: fc.array(fc.constantFrom(0, 40, 1_000), { minLength: 3, maxLength: 3 }),
  })
  .map(({ header, line, parts, keyedTo, rows }): SourceTable[] =>
    parts.flatMap((part, i) => {
      const headerName = header + part;
      const target = header + parts[keyedTo[i] < 0 ? i : keyedTo[i] % parts.length];
      return [
        sourceTable(
          headerName,
          rows[i],
          [
            column('id', 'int', 'PRI'),
            { ...column('order_date', 'date'), nullable: false },
            column('status', 'varchar(10)'),
          ],
          {
            primary_key: ['id'],
            date_stats: {
              order_date: { non_null: rows[i], first: '2020-01-01', last: '2021-12-31', future: 0 },
            },
          },
        ),
        sourceTable(
          line + part,
          rows[(i + 1) % rows.length],
          [
            column('id', 'int', 'PRI'),
            { ...column('header_id', 'int', 'MUL'), nullable: false },
            column('quantity', 'int'),
            column('unit_price', 'decimal(8,2)'),
          ],
          { primary_key: ['id'], foreign_keys: [foreignKey('header_id', target, 'id')] },
        ),
      ];
    }),
  );

/** A schema: tables with an `id` key, some columns, and references to earlier tables. */
const schema = fc
  .uniqueArray(tableName, { minLength: 1, maxLength: 7, selector: (n) => n })
  .chain((names) =>
    fc.tuple(
      ...names.map((name, i) =>
        fc
          .record({
            extra: fc.uniqueArray(extraColumn, { maxLength: 6, selector: (c) => c.name }),
            refs: fc.subarray(names.slice(0, i), { maxLength: Math.min(2, i) }),
            rows: fc.integer({ min: 1, max: 100_000 }),
          })
          .map(({ extra, refs, rows }): SourceTable => {
            const refColumns = refs.map((r) => column(`${r}_id`, 'int', 'MUL'));
            const columns = [column('id', 'int', 'PRI'), ...refColumns, ...extra].filter(
              (c, j, all) => all.findIndex((x) => x.name === c.name) === j,
            );
            return {
              name,
              row_count: rows,
              columns,
              primary_key: ['id'],
              foreign_keys: refs.map((r) => ({
                columns: [`${r}_id`],
                references_table: r,
                references_columns: ['id'],
              })),
              sample_rows: [],
              date_stats: Object.fromEntries(
                columns
                  .filter((c) => ['date', 'datetime'].includes(c.data_type))
                  .map((c) => [
                    c.name,
                    { non_null: rows, first: '2020-01-01', last: '2021-12-31', future: 0 },
                  ]),
              ),
            };
          }),
      ),
    ),
  )
  .chain((tables) =>
    // Optionally headers and their lines split alike (one table each per year or region).
    fc.option(headerLineFamily, { nil: undefined }).map((family) => {
      const taken = new Set(tables.map((t) => t.name));
      return [...tables, ...(family ?? []).filter((t) => !taken.has(t.name))];
    }),
  )
  .chain((tables) =>
    // Optionally a calendar (one row a day and its parts) that facts reach through an integer key.
    fc.boolean().map((withCalendar): SourceSnapshot => {
      if (!withCalendar) return { database: 'generated', server_version: '10.11', tables, views: [] };
      const keyed = tables.map((t, i) =>
        i % 2
          ? t
          : {
              ...t,
              columns: [...t.columns, column('date_key', 'int', 'MUL')],
              foreign_keys: [
                ...t.foreign_keys,
                { columns: ['date_key'], references_table: 'dim_date', references_columns: ['date_key'] },
              ],
            },
      );
      return { database: 'generated', server_version: '10.11', tables: [...keyed, calendar()], views: [] };
    }),
  );

/** A calendar of 2024: `date_key` (yyyymmdd), the day and its parts, one row a day. */
function calendar(): SourceTable {
  const days = Array.from({ length: 366 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i)));
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return {
    name: 'dim_date',
    row_count: days.length,
    columns: [
      column('date_key', 'int', 'PRI'),
      { ...column('full_date', 'date'), nullable: false },
      column('year', 'smallint'),
      column('month', 'tinyint'),
      column('quarter', 'tinyint'),
      column('day_of_week', 'tinyint'),
    ],
    primary_key: ['date_key'],
    foreign_keys: [],
    sample_rows: days.slice(0, 5).map((d) => ({
      date_key: iso(d).replace(/-/g, ''),
      full_date: iso(d),
      year: String(d.getUTCFullYear()),
      month: String(d.getUTCMonth() + 1),
      quarter: String(Math.floor(d.getUTCMonth() / 3) + 1),
      day_of_week: String(d.getUTCDay() + 1),
    })),
    date_stats: { full_date: { non_null: days.length, first: '2024-01-01', last: '2024-12-31', future: 0 } },
  };
}

describe('the offline analyst on generated schemas', () => {
  it('always writes a PRD that passes its own validation', () => {
    fc.assert(
      fc.property(schema, (snapshot) => {
        const prd = buildOfflinePrd(snapshot);
        const checked = prdSchema.safeParse(prd);
        if (!checked.success)
          throw new Error(checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('joins families of lines to families of headers, so the property above reaches that path', () => {
    const joined = fc
      .sample(schema, { numRuns: 300, seed: 42 })
      .map((s) => buildOfflinePrd(s))
      .filter((prd) => prd.layers.dwd.some((t) => t.joined_unions?.length));
    expect(joined.length).toBeGreaterThan(0);
  });

  it('dates facts through a generated calendar, so the property above reaches that path', () => {
    const dated = fc
      .sample(schema, { numRuns: 300, seed: 42 })
      .filter((s) => s.tables.some((t) => t.name === 'dim_date'))
      .map((s) => buildOfflinePrd(s))
      .filter((prd) => prd.facts.some((f) => f.event_time?.table === 'dim_date'));
    expect(dated.length).toBeGreaterThan(0);
  });
});

describe('the offline analyst mends its own PRD', () => {
  const snapshot: SourceSnapshot = {
    database: 'shop',
    server_version: '10.11',
    views: [],
    tables: [
      sourceTable('customers', 50, [column('id', 'int', 'PRI'), column('name', 'varchar(30)')], {
        primary_key: ['id'],
      }),
      sourceTable(
        'sales',
        5_000,
        [
          column('id', 'int', 'PRI'),
          column('customers_id', 'int', 'MUL'),
          column('sold_at', 'datetime'),
          column('amount', 'decimal(10,2)'),
        ],
        {
          primary_key: ['id'],
          foreign_keys: [foreignKey('customers_id', 'customers', 'id')],
          date_stats: { sold_at: { non_null: 5_000, first: '2024-01-01', last: '2024-12-31', future: 0 } },
        },
      ),
    ],
  };

  it('gives repeated names distinct ones and drops what points nowhere', () => {
    const prd = buildOfflinePrd(snapshot);
    const [first] = prd.metrics;
    const broken = structuredClone(prd);
    broken.metrics.push({ ...first, description: 'the same name again' });
    broken.metrics.push({ ...first, name: 'orphan', ads_table: 'ads_nowhere' });
    broken.metrics.push({
      ...first,
      name: 'split_without_dimension',
      kind: 'breakdown',
      dimension: undefined,
    });
    broken.layers.ads.push({ ...broken.layers.ads[0] });
    broken.dashboards.push({ ...broken.dashboards[0], metrics: ['orphan', first.name] });
    broken.dashboards.push({ title: 'Nothing left', description: '', metrics: ['orphan'], chart: 'line' });
    expect(prdSchema.safeParse(broken).success).toBe(false);

    const mended = validOfflinePrd(broken);
    expect(prdSchema.safeParse(mended).success).toBe(true);
    const names = mended.metrics.map((m) => m.name);
    expect(names).toContain(first.name);
    expect(names).toContain(`${first.name}_2`);
    expect(names).not.toContain('orphan');
    expect(names).not.toContain('split_without_dimension');
    expect(mended.layers.ads.map((t) => t.name)).toEqual([
      ...prd.layers.ads.map((t) => t.name),
      `${prd.layers.ads[0].name}_2`,
    ]);
    expect(mended.dashboards.map((d) => d.title)).toEqual([
      ...prd.dashboards.map((d) => d.title),
      `${prd.dashboards[0].title} (2)`,
    ]);
    expect(mended.dashboards.at(-1)!.metrics).toEqual([first.name]);
  });

  it('says so when what it wrote cannot be mended', () => {
    const prd = buildOfflinePrd(snapshot);
    const broken = structuredClone(prd);
    broken.layers.ads[0].partition_by = [];
    expect(() => validOfflinePrd(broken)).toThrow(
      /cannot mend: layers\.ads: ADS table .* must be partitioned by stat_date/,
    );
  });
});

describe('names derived from two source names never meet', () => {
  const dated = (name: string, extra: SourceColumn[] = []): SourceTable =>
    sourceTable(
      name,
      1_000,
      [
        column('id', 'int', 'PRI'),
        column('store_id', 'int', 'MUL'),
        { ...column('sold_at', 'datetime'), nullable: false },
        column('amount', 'decimal(10,2)'),
        ...extra,
      ],
      {
        primary_key: ['id'],
        foreign_keys: [foreignKey('store_id', 'stores', 'id')],
        date_stats: { sold_at: { non_null: 1_000, first: '2024-01-01', last: '2024-12-31', future: 0 } },
      },
    );
  const stores = sourceTable(
    'stores',
    20,
    [column('id', 'int', 'PRI'), column('city', 'varchar(30)'), column('region', 'varchar(30)')],
    { primary_key: ['id'] },
  );

  it('gives `sales` and `sales_breakdown` tables of their own, each read by its own layers', () => {
    const prd = buildOfflinePrd({
      database: 'shop',
      server_version: '10.11',
      views: [],
      tables: [stores, dated('sales'), dated('sales_breakdown'), dated('sales_detail')],
    });
    const all = [...prd.layers.dwd, ...prd.layers.dws, ...prd.layers.ads].map((t) => t.name);
    expect(new Set(all).size).toBe(all.length);
    expect(prd.facts).toHaveLength(3);
    // Each fact's DWD is read by its own DWS tables, so no fact's series is another's.
    for (const fact of prd.facts) {
      const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === fact.table)!;
      expect(prd.layers.dws.filter((t) => t.source_tables.includes(dwd.name)).length).toBeGreaterThan(0);
    }
  });

  it('gives columns `1a` and `t_1a` distinct field names', () => {
    const prd = buildOfflinePrd({
      database: 'shop',
      server_version: '10.11',
      views: [],
      tables: [stores, dated('sales', [column('1a', 'int'), column('t_1a', 'int')])],
    });
    const ods = prd.layers.ods.find((t) => t.source_tables[0] === 'sales')!;
    const names = ods.fields.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === 'sales')!;
    const dwdNames = dwd.fields.map((f) => f.name);
    expect(new Set(dwdNames).size).toBe(dwdNames.length);
  });
});
