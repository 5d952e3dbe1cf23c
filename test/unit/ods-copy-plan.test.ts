/** How a copy is split into parts, and what the one-snapshot rule concludes from the parts' positions. */
import { MAX_RANGES_PER_TABLE, planOdsParts } from '../../domain/warehouse/ods-copy-plan';
import { snapshotVerdict, snapshotWarning } from '../../domain/warehouse/ods-snapshot-verdict';
import type { SourceTable } from '../../shared/source-schema';

function table(name: string, key?: 'int' | 'varchar'): SourceTable {
  return {
    name,
    row_count: 0,
    primary_key: key ? ['id'] : [],
    foreign_keys: [],
    columns: [
      { name: 'id', type: key ?? 'int', data_type: key ?? 'int', nullable: false, key: key ? 'PRI' : '' },
    ],
    sample_rows: [],
  };
}

/** Ranges as the source would give them: `n` predicates, or one when the table is empty. */
const ranges = async (t: SourceTable, n: number) =>
  t.name === 'empty' ? [''] : Array.from({ length: n }, (_, i) => `r${i}`);

describe('planOdsParts', () => {
  it('keeps a source at or under the part size in one part (one activity, one snapshot)', async () => {
    const plan = await planOdsParts(
      [table('a', 'int'), table('b')],
      new Map([
        ['a', 600],
        ['b', 400],
      ]),
      1000,
      ranges,
    );
    expect(plan.parts).toEqual([{ id: 'p1', kind: 'tables', tables: ['a', 'b'], estimated_rows: 1000 }]);
  });

  it('cuts big integer-keyed tables, gives big unkeyed ones a part each, and packs the rest first fit', async () => {
    const plan = await planOdsParts(
      [
        table('big', 'int'),
        table('wide'),
        table('text_key', 'varchar'),
        table('s1'),
        table('s2'),
        table('s3'),
      ],
      new Map([
        ['big', 2500],
        ['wide', 1500],
        ['text_key', 1200],
        ['s1', 600],
        ['s2', 300],
        ['s3', 500],
      ]),
      1000,
      ranges,
    );
    expect(
      plan.parts.map((p) => (p.kind === 'range' ? `${p.table}:${p.index}/${p.of}` : p.tables.join('+'))),
    ).toEqual(['big:0/3', 'big:1/3', 'big:2/3', 'wide', 'text_key', 's1+s2', 's3']);
    expect(plan.estimated_rows).toBe(6600);
  });

  it('caps the ranges of one table, and copies a table whole when it cannot be cut', async () => {
    const plan = await planOdsParts(
      [table('huge', 'int'), table('empty', 'int')],
      new Map([
        ['huge', 1_000_000],
        ['empty', 5000],
      ]),
      100,
      ranges,
    );
    expect(plan.parts.filter((p) => p.kind === 'range')).toHaveLength(MAX_RANGES_PER_TABLE);
    expect(plan.parts.at(-1)).toMatchObject({ kind: 'tables', tables: ['empty'] });
  });
});

describe('snapshotVerdict', () => {
  const read = (id: string, before: string | null, after = before) => ({
    snapshot: { id, position: { before, after } },
  });

  it('one snapshot is one point in time, whatever the positions', () => {
    expect(snapshotVerdict([read('s1', null), read('s1', null)])).toMatchObject({
      consistency: 'one_snapshot',
      snapshots: 1,
    });
  });

  it('several snapshots at one position are unchanged; at several, changed; without positions, unknown', () => {
    expect(snapshotVerdict([read('s1', 'gtid:0-1-5'), read('s2', 'gtid:0-1-5')])).toEqual({
      consistency: 'unchanged',
      snapshots: 2,
      positions: ['gtid:0-1-5'],
    });
    const changed = snapshotVerdict([read('s1', 'gtid:0-1-5'), read('s2', 'gtid:0-1-5', 'gtid:0-1-6')]);
    expect(changed).toMatchObject({ consistency: 'changed', positions: ['gtid:0-1-5', 'gtid:0-1-6'] });
    expect(snapshotWarning(changed)).toMatch(/^read in 2 snapshots while the source server committed writes/);
    const unknown = snapshotVerdict([read('s1', 'gtid:0-1-5'), read('s2', null)]);
    expect(unknown.consistency).toBe('unknown');
    expect(snapshotWarning(unknown)).toMatch(/whether it changed in between is unknown/);
  });

  it('a table from a checkpoint that recorded no snapshot makes the verdict unknown', () => {
    expect(snapshotVerdict([read('s1', 'gtid:0-1-5'), {}]).consistency).toBe('unknown');
  });
});
