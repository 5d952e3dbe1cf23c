/**
 * Flat exports (docs/offline-analyst.md#flat-exports): one wide table is a fact at line grain, broken
 * down by the columns whose values are few (whatever they are called), with its headers counted by
 * the id its lines repeat.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import type { SourceColumn, SourceSnapshot } from '../../../shared/source-schema';

const column = (name: string, type: string): SourceColumn => ({
  name,
  type,
  data_type: type.replace(/\(.*$/, ''),
  nullable: false,
  key: '',
});

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
