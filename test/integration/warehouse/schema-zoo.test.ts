/**
 * The whole warehouse build on schemas the analyst was not written for: every zoo schema, the
 * generated demo retailer and Sakila, each held against SQL run on its source (event dates covered
 * day for day, revenue to the cent, no key or code aggregated, roles, industry, every metric valid).
 */
import type { Connection } from 'mysql2/promise';
import { ZOO } from '../../../scripts/demo-data/zoo';
import type { SchemaTruth } from '../../../scripts/demo-data/generated-database';
import { SAKILA_TRUTH } from '../../fixtures/sakila-truth';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource, sakilaConnection } from '../../harness/sakila';
import { loadDemoIntoHarness, loadZooDatabase } from '../../harness/zoo';
import { buildDashboardSpec } from '../../../domain/visualization/dashboard-spec';
import { alignEventDates } from '../../../shared/prd-event-dates';
import { buildProject, pipelineProblems, profileProblems, reconcile } from './zoo-project-checks';

interface Case {
  name: string;
  description: string;
  truth: SchemaTruth;
  connect(): Promise<Connection>;
}

const cases: [string, () => Promise<Case>][] = [
  ...ZOO.map((z): [string, () => Promise<Case>] => [z.name, () => loadZooDatabase(z.name)]),
  ['demo_store', () => loadDemoIntoHarness({ scale: 0.1 })],
  [
    'sakila',
    async () => ({ name: 'sakila', description: '', truth: SAKILA_TRUTH, connect: sakilaConnection }),
  ],
];

describe("a person's edit of a fact's event time", () => {
  it('moves the DWD date, and rows left undated stay off the time axis and the grain', async () => {
    const db = await loadZooDatabase('zoo_prefixed_sales');
    const mysql = await db.connect();
    try {
      const root = newTestDataDir();
      const projectId = 'proj-20261126-editdate';
      const built = await buildProject(mysql, harnessSource(db.name), db.name, '', root, projectId, (prd) => {
        const lines = prd.facts.find((f) => f.table === 'salesline')!;
        lines.event_time = { table: 'salesline', column: 'l_allocateddate', path: [], evidence: 'by hand' };
        return alignEventDates(prd);
      });
      const dwd = built.prd.layers.dwd.find((t) => t.name === 'dwd_salesline_detail')!;
      expect(dwd.fields.find((f) => f.name === 'event_date')!.source).toBe(
        'CAST(salesline.l_allocateddate AS DATE)',
      );
      const spec = buildDashboardSpec(built.prd, built.metrics, 'http://x');
      const lines = spec.datasets.filter((d) => d.ads_table === 'ads_salesline_kpi_daily');
      expect(lines.length).toBeGreaterThan(2);
      for (const d of lines) {
        expect([d.metric, d.first_date, d.last_date]).toEqual([
          d.metric,
          expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        ]);
        expect(Number.isFinite(d.grain!.events_per_bucket)).toBe(true);
      }
    } finally {
      await mysql.end();
    }
  });
});

describe('analysis projects on schemas of every shape', () => {
  it.each(cases)(
    '%s: facts dated by their events, revenue reconciled, keys never summed',
    async (name, load) => {
      const db = await load();
      const mysql = await db.connect();
      try {
        const root = newTestDataDir();
        const built = await buildProject(
          mysql,
          harnessSource(db.name),
          db.name,
          db.description,
          root,
          `proj-20261123-${name.replace(/[^a-z0-9]/g, '').slice(0, 8)}`,
        );
        const problems = [
          ...(await reconcile(built, db.truth, mysql)),
          ...(await profileProblems(built)),
          ...(await pipelineProblems(built)),
        ];
        expect(problems).toEqual([]);
        // Every fact's series is on the dashboards, and each breaks down by at least one attribute when it can.
        expect(built.prd.dashboards.length).toBeGreaterThanOrEqual(built.prd.facts.length);
      } finally {
        await mysql.end();
      }
    },
  );
});
