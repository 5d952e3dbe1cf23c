/**
 * Flat exports (docs/offline-analyst.md#flat-exports): one wide table is a fact at line grain, broken
 * down by the columns whose values are few (whatever they are called), with its headers counted by
 * the id its lines repeat.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { column } from '../../fixtures/source-tables';

function exportOf(distinct: Record<string, number>): SourceSnapshot {
  return {
    database: 'exports',
    server_version: '10.11',
    views: [],
    tables: [
      {
        name: 'Export',
        row_count: 5000,
        columns: [
          column('Beleg Nr', 'varchar(12)'),
          column('Datum', 'varchar(10)'),
          column('Zzkanal', 'varchar(20)'),
          column('Kommentar', 'varchar(200)'),
          column('Betrag', 'decimal(12,2)'),
        ],
        primary_key: [],
        foreign_keys: [],
        sample_rows: [],
        date_stats: {
          Datum: {
            encoding: 'text',
            format: '%d.%m.%Y',
            non_null: 5000,
            first: '2024-01-02',
            last: '2024-06-30',
            future: 0,
          },
        },
        sampled: { rows: 200, distinct },
      },
    ],
  };
}

describe('a flat export', () => {
  it('is broken down by a column of few values, even one whose name means nothing to the analyst', () => {
    const prd = buildOfflinePrd(exportOf({ 'Beleg Nr': 70, Zzkanal: 4, Kommentar: 180 }));
    const breakdown = prd.layers.dws.find((t) => t.name.includes('breakdown'));
    expect(breakdown?.fields.map((f) => f.name)).toContain('zzkanal');
    // Free text with as many values as rows is no category.
    expect(breakdown?.fields.map((f) => f.name)).not.toContain('kommentar');
  });

  it('reads a quantity kept as text as a number, and keeps the text beside it', () => {
    const snapshot = exportOf({ 'Beleg Nr': 70, Zzkanal: 4, Kommentar: 180 });
    const table = snapshot.tables[0];
    table.columns.push(column('Menge', 'varchar(10)'));
    table.sample_rows = ['3', '12', '1,5', '7', 'n/a'].map((Menge) => ({ Menge }));
    const prd = buildOfflinePrd(snapshot);
    const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === 'Export')!;
    expect(dwd.fields.find((f) => f.name === 'menge')).toMatchObject({ type: 'DECIMAL(38,2)' });
    expect(dwd.fields.find((f) => f.name === 'menge')!.source).toMatch(/^TRY_CAST\(/);
    expect(dwd.fields.map((f) => f.name)).toContain('menge_text');
    expect(prd.quality_rules.map((r) => r.name)).toContain('Export.Menge reads as a number');
    const daily = prd.layers.dws.find((t) => t.name.endsWith('_daily') && !t.name.includes('breakdown'))!;
    expect(daily.fields.find((f) => f.source === 'SUM(menge)')).toBeDefined();
  });

  it('counts the headers by the id its lines repeat, and not by a column unique to each line', () => {
    const daily = (distinct: Record<string, number>) =>
      buildOfflinePrd(exportOf(distinct)).layers.dws.find(
        (t) => t.name.endsWith('_daily') && !t.name.includes('breakdown'),
      )!;
    expect(daily({ 'Beleg Nr': 70, Zzkanal: 4, Kommentar: 180 }).fields).toContainEqual(
      expect.objectContaining({ name: 'beleg_count', source: 'COUNT(DISTINCT beleg_nr)' }),
    );
    expect(daily({ 'Beleg Nr': 200, Zzkanal: 4, Kommentar: 180 }).fields.map((f) => f.name)).not.toContain(
      'beleg_count',
    );
  });
});
