/**
 * Layers rebuilt by day when a table's day comes from a table it joins (docs/refresh.md#only-affected-days):
 * order lines dated by their order's time. The ODS changed as a refresh changes it (a line's price,
 * a line moved to another order, an order moved to another day with its lines untouched, new orders
 * and lines, a deleted line, then a deleted order), each layer refreshed, and every modeled table
 * compared with a new build on the same ODS. Names say nothing on purpose.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { openDuckDb } from '../../../domain/warehouse/duckdb-module';
import { ODS_COPY_SETTINGS } from '../../../domain/warehouse/ods-table-copy';
import { mergeChanges } from '../../../domain/warehouse/refresh/ods-merge';
import { openDeltaLog, recordDelta, wholeTableDelta } from '../../../domain/warehouse/refresh/ods-delta';
import type { TableScope } from '../../../domain/warehouse/warehouse-engine';
import { layerDir, odsTableFile } from '../../../domain/warehouse/warehouse-layout';
import { newTestDataDir } from '../../harness/platform-gateway';
import { layerProjectsOf, layerSpecs, MODELED, type ModeledLayers } from './layer-refresh-fixture';

const KEPT = 'proj-20261202-joinday';
const FRESH = 'proj-20261202-joinfresh';
const SOURCES = ['kopf', 'zeile'];

/** Lines dated by their order (`k.zeit`), summed a day, the ADS partitioned by day. */
function layers(projectId: string): ModeledLayers {
  const { ods, dwd, dws, t } = layerSpecs(projectId);
  return {
    dwd: [
      t(
        'posten',
        `SELECT z."id", z."menge" * z."preis" AS "wert", CAST(k."zeit" AS DATE) AS "tag", k."kunde"
         FROM ${ods}."ods_zeile" AS z LEFT JOIN ${ods}."ods_kopf" AS k ON z."kopf" = k."nr"`,
      ),
      // The same day as a text-date export's is written: a CASE with no ELSE, whose NULL DuckDB
      // makes itself (a node with no place in the text).
      t(
        'posten_geprueft',
        `SELECT z."id", CAST(CASE WHEN k."zeit" > TIMESTAMP '2000-01-01' THEN k."zeit" END AS DATE) AS "tag"
         FROM ${ods}."ods_zeile" AS z LEFT JOIN ${ods}."ods_kopf" AS k ON z."kopf" = k."nr"`,
      ),
    ],
    dws: [
      t(
        'taeglich',
        `SELECT "tag" AS "stat_date", COUNT(*) AS n, SUM("wert") AS summe FROM ${dwd}."posten" GROUP BY 1`,
      ),
    ],
    ads: [t('kpi', `SELECT "stat_date", n, summe FROM ${dws}."taeglich"`, ['stat_date'])],
  };
}

describe('a table dated by the table it joins, rebuilt by day after a refresh', () => {
  let root: string;
  let engine: DuckDbWarehouse;
  let duck: DuckDBConnection;
  let changeFiles = 0;
  const ods = (projectId: string) => layerDir(root, projectId, 'ods');
  const fixture = layerProjectsOf(KEPT, FRESH, SOURCES, layers, () => ({ root, engine }));
  const { register, refreshLayers, expectEqualToFreshBuild } = fixture;

  /**
   * One refresh: each table's changed rows (`changes`, a SELECT over `o`, its ODS file) merged by
   * key, and the keys the source still has (`keep`, a predicate on `o`) deciding what was deleted;
   * the other tables read again and found unchanged.
   */
  async function refreshOds(tables: Record<string, { key: string; changes: string; keep?: string }>) {
    const log = openDeltaLog(ods(KEPT));
    for (const table of SOURCES.filter((s) => !(s in tables))) {
      const file = odsTableFile(ods(KEPT), table);
      await recordDelta(duck, log, file, wholeTableDelta(file, file));
    }
    for (const [table, { key, changes, keep }] of Object.entries(tables)) {
      const file = odsTableFile(ods(KEPT), table);
      const o = `read_parquet('${file}')`;
      const changed = path.join(root, `changes-${++changeFiles}.parquet`);
      await duck.run(`COPY (${changes.replace(/\bo\b/g, o)}) TO '${changed}' (FORMAT parquet)`);
      const keys = path.join(root, `keys-${changeFiles}.parquet`);
      await duck.run(
        `COPY (SELECT "${key}" FROM ${o} WHERE ${keep ?? 'true'} UNION SELECT "${key}" FROM '${changed}')
         TO '${keys}' (FORMAT parquet)`,
      );
      await mergeChanges(duck, {
        file,
        changes: changed,
        keys,
        key: [key],
        column: key,
        recordDelta: (select) => recordDelta(duck, log, file, select),
      });
    }
  }

  const days = (scope: TableScope) => (scope.kind === 'days' ? scope.days : []);

  beforeAll(async () => {
    root = newTestDataDir();
    engine = new DuckDbWarehouse(root);
    duck = await (await openDuckDb(':memory:', ODS_COPY_SETTINGS)).connect();
    fs.mkdirSync(ods(KEPT), { recursive: true });
    // 300 orders over 60 days from 2025-03-01 (five a day), three lines each.
    await duck.run(
      `COPY (SELECT i::BIGINT AS nr, (i % 17)::INTEGER AS kunde,
                    TIMESTAMP '2025-03-01 09:00:00' + to_hours(((i - 1) // 5 * 24)::BIGINT) AS zeit
             FROM range(1, 301) r(i)) TO '${odsTableFile(ods(KEPT), 'kopf')}' (FORMAT parquet)`,
    );
    await duck.run(
      `COPY (SELECT i::BIGINT AS id, ((i - 1) // 3 + 1)::BIGINT AS kopf, (1 + i % 4)::INTEGER AS menge,
                    (5 + i % 13)::DECIMAL(10,2) AS preis
             FROM range(1, 901) r(i)) TO '${odsTableFile(ods(KEPT), 'zeile')}' (FORMAT parquet)`,
    );
    await register(KEPT);
    for (const layer of MODELED) await engine.buildLayer(KEPT, layer, layers(KEPT)[layer]);
  });

  afterAll(() => duck.closeSync());

  it('recomputes the days of changed lines and of changed orders (the day they had and the day they have), and ends equal to a new build', async () => {
    await refreshOds({
      // Order 10 (2025-03-02) moved to 2025-04-10, its lines untouched; order 301 new on 2025-05-20.
      kopf: {
        key: 'nr',
        changes: `SELECT nr, kunde, zeit + INTERVAL 39 DAY AS zeit FROM o WHERE nr = 10
                  UNION ALL SELECT 301, 3, TIMESTAMP '2025-05-20 10:00:00'`,
      },
      // Line 5 (order 2, 2025-03-01) repriced; line 100 (order 34, 2025-03-07) moved to order 250
      // (2025-04-19); line 600 (order 200, 2025-04-09) deleted; two lines of the new order.
      zeile: {
        key: 'id',
        changes: `SELECT id, kopf, menge, preis + 1 AS preis FROM o WHERE id = 5
                  UNION ALL SELECT id, 250, menge, preis FROM o WHERE id = 100
                  UNION ALL SELECT 901, 301, 2, 9.5 UNION ALL SELECT 902, 301, 1, 4.25`,
        keep: 'id <> 600',
      },
    });
    const scopes = await refreshLayers();
    const expected = [
      '2025-03-01',
      '2025-03-02',
      '2025-03-07',
      '2025-04-09',
      '2025-04-10',
      '2025-04-19',
      '2025-05-20',
    ];
    expect(scopes['dwd.posten']).toMatchObject({ kind: 'days', column: 'tag', null_day: false });
    // The days above and none but them: probes may read more, never a day nothing touched.
    expect(days(scopes['dwd.posten'])).toEqual(expected);
    expect(days(scopes['dws.taeglich'])).toEqual(expected);
    expect(days(scopes['dwd.posten_geprueft'])).toEqual(expected);
    expect(scopes['ads.kpi']).toMatchObject({ kind: 'days', column: 'stat_date' });
    await expectEqualToFreshBuild();
  });

  it('finds the lines of a deleted order (they lose their day) and still ends equal to a new build', async () => {
    // Order 40 (2025-03-08) deleted; its lines stay, now without an order.
    await refreshOds({ kopf: { key: 'nr', changes: 'SELECT * FROM o WHERE false', keep: 'nr <> 40' } });
    const scopes = await refreshLayers();
    expect(scopes['dwd.posten']).toMatchObject({ kind: 'days', null_day: true });
    expect(days(scopes['dwd.posten'])).toEqual(['2025-03-08']);
    await expectEqualToFreshBuild();
  });
});
