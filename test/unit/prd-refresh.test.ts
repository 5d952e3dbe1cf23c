/**
 * The refresh plan as a person edits it (docs/offline-analyst.md#change-detection): an edit that
 * names a table or column the ODS does not copy, smuggles SQL into a column, or contradicts itself is
 * refused at the field that breaks the rule.
 */
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import type { PrdRefresh } from '../../shared/prd-refresh';
import { prdSchema } from '../../shared/prd-schema';
import { SNAPSHOT } from '../harness/stand-in-project';

const base = buildOfflinePrd(SNAPSHOT, 'online shop orders');
const table = base.layers.ods[0].source_tables[0];
const column = SNAPSHOT.tables.find((t) => t.name === table)!.columns[0].name;

/** The problems of the base PRD with `refresh` in place of its plan, as `path: message`. */
function problems(refresh: unknown[]): string[] {
  const parsed = prdSchema.safeParse({ ...base, refresh });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

const entry = (over: Partial<PrdRefresh>): PrdRefresh => ({
  table,
  detect: 'key',
  column,
  deletes: 'key_set',
  evidence: '',
  ...over,
});

describe('the refresh plan of a PRD', () => {
  it('accepts the analyst’s plan, an edit to another column the ODS copies, and no plan at all', () => {
    expect(base.refresh.length).toBe(SNAPSHOT.tables.length);
    expect(problems(base.refresh)).toEqual([]);
    expect(problems([entry({})])).toEqual([]);
    expect(prdSchema.parse({ ...base, refresh: undefined }).refresh).toEqual([]);
  });

  it('refuses a table or a column the ODS does not copy, naming the field', () => {
    expect(problems([entry({ table: 'mysql.user' })])).toEqual([
      'refresh.0.table: mysql.user is not a source table the ODS copies',
    ]);
    expect(problems([entry({ column: 'no_such_column' })])).toEqual([
      `refresh.0.column: no_such_column is not a column of ${table} the ODS copies`,
    ]);
  });

  it('refuses SQL in place of a column', () => {
    for (const hostile of [
      `${column}; DROP TABLE users`,
      `${column} OR 1=1`,
      '`x`) UNION SELECT password FROM mysql.user --',
    ])
      expect(problems([entry({ detect: 'updated_at', column: hostile })])).toEqual([
        `refresh.0.column: ${hostile} is not a column of ${table} the ODS copies`,
      ]);
  });

  it('refuses an entry that contradicts itself or repeats a table', () => {
    expect(problems([entry({ detect: 'full', deletes: 'reread' })])).toEqual([
      'refresh.0.column: a table read whole names no column',
    ]);
    expect(problems([entry({ detect: 'full', column: undefined })])).toEqual([
      'refresh.0.deletes: deletes is reread exactly when the table is read whole (detect full)',
    ]);
    expect(problems([entry({ detect: 'updated_at', column: undefined })])).toEqual([
      'refresh.0.column: detect updated_at needs the column it reads',
    ]);
    expect(problems([entry({}), entry({})])).toEqual([
      `refresh.1.table: ${table} has an earlier refresh entry`,
    ]);
    expect(problems([{ ...entry({}), sql: 'SELECT 1' }])).toEqual([
      expect.stringMatching(/^refresh\.0: Unrecognized key/),
    ]);
  });
});
