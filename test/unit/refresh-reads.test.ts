/**
 * What a refresh reads of a table: the predicate of its changed rows, built only from a quoted column
 * name and a high-water mark of the expected shape; anything else is read whole, with the reason.
 */
import {
  tableRead,
  mergeKey,
  LATE_COMMIT_MARGIN_SECONDS,
} from '../../domain/warehouse/refresh/refresh-reads';
import type { PrdRefresh } from '../../shared/prd-refresh';
import { column, sourceTable } from '../fixtures/source-tables';

const orders = sourceTable(
  'orders',
  10,
  [
    column('id', 'int', 'PRI'),
    column('changed`at', 'timestamp'),
    column('seen', 'datetime', '', true),
    column('note', 'varchar(20)'),
  ],
  { primary_key: ['id'] },
);
const entry = (detect: PrdRefresh['detect'], col?: string): PrdRefresh => ({
  table: 'orders',
  detect,
  column: col,
  deletes: detect === 'full' ? 'reread' : 'key_set',
  evidence: '',
});

describe('a refresh read', () => {
  it('reads rows stamped since the mark, looking back by the late-commit margin, with the name quoted', () => {
    expect(tableRead(orders, entry('updated_at', 'changed`at'), '2026-11-30 10:00:00.5')).toMatchObject({
      kind: 'changes',
      predicate: `\`changed\`\`at\` >= TIMESTAMP '2026-11-30 10:00:00.5' - INTERVAL ${LATE_COMMIT_MARGIN_SECONDS} SECOND`,
      key: ['id'],
      keySet: true,
    });
  });

  it('reads the rows never stamped too, when the stamp may be NULL', () => {
    const read = tableRead(orders, entry('updated_at', 'seen'), '2026-11-30');
    expect(read).toMatchObject({
      predicate: `(\`seen\` >= TIMESTAMP '2026-11-30 00:00:00' - INTERVAL ${LATE_COMMIT_MARGIN_SECONDS} SECOND OR \`seen\` IS NULL)`,
    });
  });

  it('reads keys past the greatest one held', () => {
    expect(tableRead(orders, entry('key', 'id'), '41')).toMatchObject({
      kind: 'changes',
      predicate: '`id` > 41',
    });
  });

  it.each([
    ["2026-11-30' OR 1=1 --", 'updated_at', 'changed`at', "changed`at's high-water mark is not a timestamp"],
    ['41; DROP TABLE orders', 'key', 'id', "id's high-water mark is not an integer"],
    ['some note', 'key', 'note', "note's high-water mark is not an integer"],
    ['1', 'key', 'missing', 'missing is not a column of the table as copied'],
  ] as const)('reads the table whole rather than put %j in a predicate', (mark, detect, col, why) => {
    expect(tableRead(orders, entry(detect, col), mark)).toEqual({ table: 'orders', kind: 'whole', why });
  });

  it('reads the table whole when there is nothing to start from or to merge by', () => {
    expect(tableRead(orders, entry('key', 'id'), undefined)).toMatchObject({ kind: 'whole' });
    expect(tableRead(orders, undefined, '1')).toMatchObject({ why: 'the refresh plan does not name it' });
    const keyless = { ...orders, primary_key: [] };
    expect(tableRead(keyless, entry('key', 'id'), '1')).toMatchObject({
      why: 'no key to merge changed rows by',
    });
  });

  it('merges by a unique column only when it is never NULL', () => {
    const t = (nullable: boolean) =>
      sourceTable('t', 1, [column('code', 'varchar(8)', 'UNI', nullable)], { unique_columns: ['code'] });
    expect(mergeKey(t(false))).toEqual(['code']);
    expect(mergeKey(t(true))).toEqual([]);
  });
});
