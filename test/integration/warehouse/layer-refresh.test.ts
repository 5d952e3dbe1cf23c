/**
 * Layers rebuilt by day after a refresh (docs/refresh.md#only-affected-days): an ODS changed the
 * way a refresh changes it (merged by key, a table read whole, deletes, a row moved to another
 * day, a late row months back, a dimension row changed), then each layer refreshed, and every
 * modeled table compared with a new build on the same ODS. Names are chosen so nothing can be
 * guessed from them: the day column is `tag`, the month `periode`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { openDuckDb } from '../../../domain/warehouse/duckdb-module';
import { ODS_COPY_SETTINGS } from '../../../domain/warehouse/ods-table-copy';
import { mergeChanges } from '../../../domain/warehouse/refresh/ods-merge';
import {
  forgetDelta,
  openDeltaLog,
  recordDelta,
  wholeTableDelta,
  type DeltaLog,
} from '../../../domain/warehouse/refresh/ods-delta';
import { layerDir, odsTableFile } from '../../../domain/warehouse/warehouse-layout';
import { newTestDataDir } from '../../harness/platform-gateway';
import { layerProjectsOf, layerSpecs, MODELED, type ModeledLayers } from './layer-refresh-fixture';

const KEPT = 'proj-20261201-layers';
const FRESH = 'proj-20261201-fresh';
const SOURCES = ['bestellung', 'kunde', 'region'];

/** The layers' SELECTs for a project: a join two deep, daily and monthly sums, a sum by country, ADS. */
function layers(projectId: string): ModeledLayers {
  const { ods, dwd, dws, t } = layerSpecs(projectId);
  return {
    dwd: [
      t(
        'verkauf',
        `SELECT b."nr", b."betrag", CAST(b."zeit" AS DATE) AS "tag", k."land", r."gebiet"
         FROM ${ods}."ods_bestellung" AS b
           LEFT JOIN ${ods}."ods_kunde" AS k ON b."kunde" = k."kunde"
           LEFT JOIN ${ods}."ods_region" AS r ON k."land" = r."land"`,
      ),
      t('gebiete', `SELECT "land", "gebiet" FROM ${ods}."ods_region"`),
    ],
    dws: [
      t(
        'taeglich',
        `SELECT CAST("tag" AS DATE) AS "stat_date", "gebiet", COUNT(*) AS n, SUM("betrag") AS summe
         FROM ${dwd}."verkauf" GROUP BY 1, 2`,
      ),
      t(
        'monatlich',
        `SELECT CAST(date_trunc('month', "tag") AS DATE) AS "periode", SUM("betrag") AS summe
         FROM ${dwd}."verkauf" GROUP BY 1`,
      ),
      t('nach_land', `SELECT "land", SUM("betrag") AS summe FROM ${dwd}."verkauf" GROUP BY 1`),
      t('bis_heute', `SELECT MAX("tag") AS "letzter", SUM("betrag") AS summe FROM ${dwd}."verkauf"`),
    ],
    ads: [
      t('kpi_tag', `SELECT "stat_date", "gebiet", "summe" FROM ${dws}."taeglich"`, ['stat_date']),
      t('kpi_monat', `SELECT "periode", "summe" FROM ${dws}."monatlich"`),
    ],
  };
}

describe('modeled layers rebuilt by day after a refresh', () => {
  let root: string;
  let engine: DuckDbWarehouse;
  let duck: DuckDBConnection;
  const ods = (projectId: string) => layerDir(root, projectId, 'ods');

  /** Writes a source table's ODS file from a SELECT. */
  const writeOds = (projectId: string, table: string, select: string) =>
    duck.run(`COPY (${select}) TO '${odsTableFile(ods(projectId), table)}' (FORMAT parquet)`);

  // Each layer refreshed in order as the refresh workflow does, and compared with a new build.
  const fixture = layerProjectsOf(KEPT, FRESH, SOURCES, layers, () => ({ root, engine }));
  const { register, refreshLayers, expectEqualToFreshBuild } = fixture;

  /** The tables `names` read again by a refresh and found unchanged: an empty change each. */
  async function recordUnchanged(log: DeltaLog, names: string[]): Promise<void> {
    for (const s of names) {
      const file = odsTableFile(ods(KEPT), s);
      await recordDelta(duck, log, file, wholeTableDelta(file, file));
    }
  }

  /**
   * One refresh of the ODS as a refresh makes it: the orders `changes` selects (over `o`, the orders'
   * ODS file) merged by key, the customers and regions read again unchanged.
   */
  async function refreshOrders(changes: (orders: string) => string): Promise<void> {
    const orders = odsTableFile(ods(KEPT), 'bestellung');
    const file = path.join(root, `changes-${++changeFiles}.parquet`);
    const log = openDeltaLog(ods(KEPT));
    await duck.run(`COPY (${changes(`read_parquet('${orders}')`)}) TO '${file}' (FORMAT parquet)`);
    await mergeChanges(duck, {
      file: orders,
      changes: file,
      key: ['nr'],
      column: 'nr',
      recordDelta: (select) => recordDelta(duck, log, orders, select),
    });
    await recordUnchanged(log, ['kunde', 'region']);
  }
  let changeFiles = 0;

  beforeAll(async () => {
    root = newTestDataDir();
    engine = new DuckDbWarehouse(root);
    // The refresh's own settings: its merges write with them.
    duck = await (await openDuckDb(':memory:', ODS_COPY_SETTINGS)).connect();
    fs.mkdirSync(ods(KEPT), { recursive: true });
    // 1,200 orders over 120 days from 2025-01-01, 40 customers in 4 countries of 2 regions.
    await writeOds(
      KEPT,
      'bestellung',
      `SELECT i::BIGINT AS nr, (i % 40 + 1)::INTEGER AS kunde, (10 + i % 97)::DECIMAL(10,2) AS betrag,
              TIMESTAMP '2025-01-01 08:00:00' + to_hours((i * 120 * 24 // 1200)::BIGINT) AS zeit
       FROM range(1, 1201) r(i)`,
    );
    await writeOds(
      KEPT,
      'kunde',
      `SELECT i::INTEGER AS kunde, ['NO', 'SE', 'DK', 'DE'][i % 4 + 1] AS land FROM range(1, 41) r(i)`,
    );
    await writeOds(
      KEPT,
      'region',
      `SELECT * FROM (VALUES ('NO', 'Nord'), ('SE', 'Nord'), ('DK', 'Nord'), ('DE', 'Mitte')) v(land, gebiet)`,
    );
    await register(KEPT);
    for (const layer of MODELED) await engine.buildLayer(KEPT, layer, layers(KEPT)[layer]);
  });

  afterAll(() => duck.closeSync());

  it('computes again only the days the changes touch, and ends equal to a new build', async () => {
    const work = path.join(root, 'changes');
    fs.mkdirSync(work, { recursive: true });
    const log = openDeltaLog(ods(KEPT));
    const orders = odsTableFile(ods(KEPT), 'bestellung');
    // Amounts updated on three days, an order moved to another day, a late order months back, a
    // new order today; order 500 deleted (its key is missing from the keys read).
    await duck.run(
      `COPY (SELECT nr, kunde, betrag + 1 AS betrag, zeit FROM read_parquet('${orders}') WHERE nr IN (10, 11, 700)
             UNION ALL SELECT nr, kunde, betrag, zeit + INTERVAL 20 DAY FROM read_parquet('${orders}') WHERE nr = 300
             UNION ALL SELECT 1201, 3, 55, TIMESTAMP '2024-09-15 12:00:00'
             UNION ALL SELECT 1202, 3, 66, TIMESTAMP '2025-05-05 12:00:00')
       TO '${work}/changes.parquet' (FORMAT parquet)`,
    );
    await duck.run(
      `COPY (SELECT nr FROM read_parquet('${orders}') WHERE nr <> 500 UNION ALL SELECT 1201 UNION ALL SELECT 1202)
       TO '${work}/keys.parquet' (FORMAT parquet)`,
    );
    const merged = await mergeChanges(duck, {
      file: orders,
      changes: `${work}/changes.parquet`,
      keys: `${work}/keys.parquet`,
      key: ['nr'],
      column: 'nr',
      recordDelta: (select) => recordDelta(duck, log, orders, select),
    });
    expect(merged.deleted).toBe(1);
    // A customer moved from Sweden to Germany (another region): every day of their orders changes.
    const customers = odsTableFile(ods(KEPT), 'kunde');
    await duck.run(
      `COPY (SELECT kunde, CASE WHEN kunde = 5 THEN 'DE' ELSE land END AS land FROM read_parquet('${customers}'))
       TO '${work}/kunde.parquet' (FORMAT parquet)`,
    );
    await recordDelta(duck, log, customers, wholeTableDelta(customers, `${work}/kunde.parquet`));
    fs.renameSync(`${work}/kunde.parquet`, customers);
    // The regions read again, unchanged.
    const regions = odsTableFile(ods(KEPT), 'region');
    await recordDelta(duck, log, regions, wholeTableDelta(regions, regions));

    const scopes = await refreshLayers();
    // Customer 5's orders (every 40th) fall on 30 days; the others add 8 (days 10-11 and 700, the
    // moved order's old and new day, the deleted order's, the late and the new order's).
    const days = scopes['dwd.verkauf'];
    expect(days).toMatchObject({ kind: 'days', column: 'tag', null_day: false });
    expect((days as { days: string[] }).days).toEqual(expect.arrayContaining(['2024-09-15', '2025-05-05']));
    expect(scopes['dwd.gebiete']).toEqual({ kind: 'kept' });
    expect(scopes['dws.taeglich']).toMatchObject({ kind: 'days', column: 'stat_date' });
    expect((scopes['dws.taeglich'] as { days: string[] }).days).toEqual((days as { days: string[] }).days);
    expect(scopes['dws.monatlich']).toMatchObject({ kind: 'days', column: 'periode' });
    expect((scopes['dws.monatlich'] as { days: string[] }).days).toContain('2024-09-01');
    expect(scopes['dws.nach_land']).toEqual({ kind: 'whole', reason: 'it has no DATE column' });
    expect(scopes['dws.bis_heute']).toMatchObject({ kind: 'whole' });
    expect(scopes['ads.kpi_tag']).toMatchObject({ kind: 'days', column: 'stat_date' });
    expect(scopes['ads.kpi_monat']).toMatchObject({ kind: 'days', column: 'periode' });
    await expectEqualToFreshBuild();
  });

  it('keeps every table when nothing changed, and builds whole what reads a table changed in no known way', async () => {
    await recordUnchanged(openDeltaLog(ods(KEPT)), SOURCES);
    const unchanged = await refreshLayers();
    expect(Object.values(unchanged).every((s) => s.kind === 'kept')).toBe(true);
    await expectEqualToFreshBuild();

    // The customers read whole with nothing to compare (their ODS file was gone): no changed rows.
    await recordUnchanged(openDeltaLog(ods(KEPT)), ['bestellung', 'region']);
    forgetDelta(odsTableFile(ods(KEPT), 'kunde'));
    const scopes = await refreshLayers();
    expect(scopes['dwd.verkauf']).toMatchObject({ kind: 'whole' });
    expect(scopes['dwd.gebiete']).toEqual({ kind: 'kept' });
    expect(scopes['ads.kpi_tag']).toMatchObject({ kind: 'whole' });
    await expectEqualToFreshBuild();
  });

  it('adds a second refresh to changes the layers have not taken in yet', async () => {
    // Two refreshes of the ODS, the layers rebuilt only after the second.
    for (const [nr, day] of [
      [20, '2025-02-02'],
      [21, '2025-03-03'],
    ] as const)
      await refreshOrders(
        (orders) =>
          `SELECT nr, kunde, betrag, TIMESTAMP '${day} 09:00:00' AS zeit FROM ${orders} WHERE nr = ${nr}`,
      );
    const scopes = await refreshLayers();
    expect((scopes['dwd.verkauf'] as { days: string[] }).days).toEqual(
      expect.arrayContaining(['2025-02-02', '2025-03-03']),
    );
    await expectEqualToFreshBuild();
  });

  it('a backfill recomputes its days in every table rebuilt by day, even where nothing changed', async () => {
    // The orders of 2025-01-31 changed with no changed rows recorded (as a correction the source
    // did not stamp): the layers do not know it, and only recomputing that day repairs them.
    const orders = odsTableFile(ods(KEPT), 'bestellung');
    await duck.run(
      `COPY (SELECT nr, kunde, CASE WHEN CAST(zeit AS DATE) = DATE '2025-01-31' THEN betrag + 7 ELSE betrag END AS betrag, zeit
             FROM read_parquet('${orders}')) TO '${orders}.new' (FORMAT parquet)`,
    );
    fs.renameSync(`${orders}.new`, orders);
    await recordUnchanged(openDeltaLog(ods(KEPT)), SOURCES);
    const scopes = await refreshLayers({ from: '2025-01-30', to: '2025-02-02' });
    const four = ['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-02'];
    expect(scopes['dwd.verkauf']).toEqual({ kind: 'days', column: 'tag', days: four, null_day: false });
    expect(scopes['dws.taeglich']).toEqual({
      kind: 'days',
      column: 'stat_date',
      days: four,
      null_day: false,
    });
    expect(scopes['dws.monatlich']).toEqual({
      kind: 'days',
      column: 'periode',
      days: ['2025-01-01', '2025-02-01'],
      null_day: false,
    });
    // No day to recompute by, and nothing it reads changed.
    expect(scopes['dwd.gebiete']).toEqual({ kind: 'kept' });
    // Sums over every day: built whole from the recomputed days.
    expect(scopes['dws.nach_land']).toEqual({ kind: 'whole', reason: 'it has no DATE column' });
    await expectEqualToFreshBuild();
  });

  it('leaves untouched rows where they were, as parts, and writes the parts into one file again after eight', async () => {
    const locations: string[] = [];
    for (let i = 1; i <= 7; i++) {
      await refreshOrders(
        (orders) =>
          `SELECT nr, kunde, betrag + ${i} AS betrag, zeit FROM ${orders} WHERE nr = ${100 * i + 1}`,
      );
      expect((await refreshLayers())['dwd.verkauf']).toMatchObject({
        kind: 'days',
        days: [expect.any(String)],
      });
      locations.push((await engine.describeLayer(KEPT, 'dwd')).find((t) => t.name === 'verkauf')!.location);
    }
    expect(locations.filter((l) => l.endsWith('verkauf.parts')).length).toBeGreaterThan(3);
    expect(locations.some((l) => l.endsWith('verkauf.parquet'))).toBe(true);
    await expectEqualToFreshBuild();
  });

  it('takes a row read again but not changed (the look-back) for no change', async () => {
    await refreshOrders((orders) => `SELECT * FROM ${orders} WHERE nr IN (42, 43)`);
    const scopes = await refreshLayers();
    expect(Object.values(scopes).every((scope) => scope.kind === 'kept')).toBe(true);
    await expectEqualToFreshBuild();
  });
});
