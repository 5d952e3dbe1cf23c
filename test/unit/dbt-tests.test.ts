import { jinjaString, literalText, toDbtSql } from '../../domain/pipeline/dbt/dbt-models';
import { dbtTests } from '../../domain/pipeline/dbt/dbt-tests';
import type { Prd, PrdQualityRule } from '../../shared/prd-schema';

const rule = (r: Partial<PrdQualityRule>): PrdQualityRule => ({
  name: 'rule',
  layer: 'ods',
  table: 'ods_orders',
  kind: 'not_null',
  params: {},
  severity: 'blocking',
  ...r,
});

describe('quality rules as dbt tests', () => {
  it('quotes values and columns, and numbers rules that read alike', () => {
    const prd = {
      quality_rules: [
        rule({
          column: 'size',
          kind: 'accepted_values',
          params: { values: ["Men's", 'Kids'] },
          severity: 'warning',
        }),
        rule({ name: '订单.金额 is not negative', column: 'order', kind: 'range', params: { min: 0 } }),
        rule({ name: '订单.税 is not negative', column: 'tax', kind: 'range', params: { min: 0 } }),
        rule({
          column: 'customer_id',
          kind: 'referential',
          params: { references_table: "ods_o'brien", references_column: 'id' },
        }),
      ],
    } as unknown as Prd;
    const tests = dbtTests(prd);
    const columns = tests.byColumn.get('ods_orders')!;
    expect(columns.get('size')).toEqual([
      {
        accepted_values: {
          arguments: { values: ["'Men''s'", "'Kids'"], quote: false },
          config: { severity: 'warn' },
        },
      },
    ]);
    expect(columns.get('customer_id')).toEqual([
      { relationships: { arguments: { to: "source('ods', 'ods_o\\'brien')", field: '"id"' } } },
    ]);
    expect(tests.singular.map((t) => t.name)).toEqual(['is_not_negative', 'is_not_negative_2']);
    expect(tests.singular[0].sql).toContain('WHERE "order" < 0');
  });

  it('keeps names and free text literal for Jinja', () => {
    expect(jinjaString("it's")).toBe("'it\\'s'");
    expect(literalText('totals {{ per day }}')).toBe('{% raw %}totals {{ per day }}{% endraw %}');
    expect(literalText('plain')).toBe('plain');
    expect(toDbtSql('p-1', 'SELECT * FROM plat_p_1_ods."ods_a" AS "a" JOIN plat_p_1_dwd."dwd_b" AS b')).toBe(
      "SELECT * FROM {{ source('ods', 'ods_a') }} AS \"a\" JOIN {{ ref('dwd_b') }} AS b",
    );
  });
});
