/** reuse_ods: a completed project's ODS copied to a new project on the same source (Sakila). */
import * as fs from 'node:fs';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { reuseOds } from '../../../domain/warehouse/ods-reuse';
import { layerDir } from '../../../domain/warehouse/warehouse-layout';
import type { Prd } from '../../../shared/prd-schema';
import { newTestDataDir } from '../../harness/platform-gateway';
import { ingestSakilaOds } from '../../harness/sakila';

describe('ODS reuse', () => {
  const root = newTestDataDir();
  let prd: Prd;

  beforeAll(async () => {
    prd = await ingestSakilaOds(root, 'proj-20261123-reusea');
  });

  it('copies every table the PRD reads, with their counts, into an independent catalog', async () => {
    const out = await reuseOds({
      warehouseRoot: root,
      fromProjectId: 'proj-20261123-reusea',
      projectId: 'proj-20261123-reuseb',
      prd,
    });
    if (!('reused' in out)) throw new Error(out.unusable);
    expect(out.reused.rows_copied).toBe(47_268);
    expect(out.reused.tables.every((t) => t.source_rows === t.ods_rows)).toBe(true);
    expect(Date.parse(out.copied_at)).toBeGreaterThan(0);
    // The new project's files are its own: removing the first project's ODS leaves it readable.
    fs.rmSync(layerDir(root, 'proj-20261123-reusea', 'ods'), { recursive: true });
    const rows = await new DuckDbWarehouse(root).query(
      'proj-20261123-reuseb',
      'SELECT COUNT(*) AS n FROM ods_payment',
      1,
      'ods',
    );
    expect(rows.rows).toEqual([{ n: '16044' }]);
  });

  it('says why it cannot reuse: no ODS there, or a table the PRD reads is missing from it', async () => {
    expect(
      await reuseOds({
        warehouseRoot: root,
        fromProjectId: 'proj-20261123-nothere',
        projectId: 'proj-20261123-reusec',
        prd,
      }),
    ).toEqual({ unusable: 'proj-20261123-nothere has no ODS on this machine' });
    const wider: Prd = {
      ...prd,
      layers: {
        ...prd.layers,
        ods: [...prd.layers.ods, { ...prd.layers.ods[0], name: 'ods_new', source_tables: ['new_table'] }],
      },
    };
    expect(
      await reuseOds({
        warehouseRoot: root,
        fromProjectId: 'proj-20261123-reuseb',
        projectId: 'proj-20261123-reused',
        prd: wider,
      }),
    ).toEqual({ unusable: 'the ODS of proj-20261123-reuseb lacks new_table, which this PRD reads' });
  });
});
