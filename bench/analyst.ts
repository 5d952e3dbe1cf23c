/**
 * How often the offline analyst is right, source by source: every schema of the zoo, the generated
 * demo retailer, Sakila and every database of the pack (`../shared/datasets`), each explored on a
 * private MariaDB, given its offline PRD, built through ODS/DWD/DWS/ADS and held against its truth
 * (test/fixtures/dataset-pack.ts; the zoo's own), and real flat files loaded as a spreadsheet import
 * leaves them (test/fixtures/flat-files.ts): event-date coverage, revenue to the cent, no key
 * or level added up, roles, industry, breakdowns, valid metrics.
 *
 *   npm run bench:analyst                       # everything
 *   BENCH_ONLY=ceaps,zoo_flat_sales npm run bench:analyst
 *   BENCH_SHOW_HELD_ASIDE=1 npm run bench:analyst   # also list what fails on the datasets kept aside
 *   BENCH_PRD_DIR=/tmp/prds npm run bench:analyst   # keep each source's PRD there, to read why
 *
 * It prints, per source, the checks right and the ones that failed (for the two datasets kept
 * aside, only their score unless asked), then the share right over the zoo, over the pack used
 * while developing and over the pack kept aside.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../shared/free-port';
import { startPrivateMariaDb } from '../scripts/lib/mariadb-instance';
import { mariadbProgram } from '../scripts/lib/tool-paths';
import { ZOO } from '../scripts/demo-data/zoo';
import { loadGeneratedDatabase, mysqlConnectionTarget } from '../scripts/demo-data/load-database';
import { loadDemoDatabase } from '../scripts/demo-data/load-demo-database';
import { DEMO_DATABASE_NAME, DEMO_DESCRIPTION } from '../scripts/demo-data/demo-database';
import { DEMO_STORE_TRUTH } from '../scripts/demo-data/demo-store/demo-store-truth';
import type { SchemaTruth } from '../scripts/demo-data/generated-database';
import { sourceConnector } from '../domain/sources/mysql-connection';
import { DATASETS_DIR, loadPackDataset, PACK } from '../test/fixtures/dataset-pack';
import { SAKILA_TRUTH } from '../test/fixtures/sakila-truth';
import { FLAT_FILES, flatFilesDir, loadFlatFile, type FlatFile } from '../test/fixtures/flat-files';
import {
  buildProject,
  profileProblems,
  reconcileChecks,
  type Check,
} from '../test/integration/warehouse/zoo-project-checks';

interface Source {
  name: string;
  database: string;
  description: string;
  truth: SchemaTruth;
  group: 'zoo' | 'pack' | 'held aside' | 'flat files' | 'flat aside';
  /** A flat file of the npm package, loaded as a spreadsheet import leaves it. */
  flat?: FlatFile;
}

const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const showHeldAside = process.env.BENCH_SHOW_HELD_ASIDE === '1';

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-analyst-'));
  const port = await freePort();
  const db = await startPrivateMariaDb({
    dataDir: path.join(scratch, 'mariadb'),
    port,
    logFile: path.join(scratch, 'mariadb.log'),
  });
  const connect = async (database?: string) => {
    const c = await mysql.createConnection({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database,
      dateStrings: true,
      multipleStatements: !database,
    });
    await c.query("SET time_zone = '+00:00'");
    return c;
  };
  const sources: Source[] = [
    ...ZOO.map((z) => {
      const g = z.generate();
      return {
        name: z.name,
        database: g.name,
        description: g.description,
        truth: g.truth,
        group: 'zoo' as const,
      };
    }),
    {
      name: 'demo_store',
      database: DEMO_DATABASE_NAME,
      description: DEMO_DESCRIPTION,
      truth: DEMO_STORE_TRUTH,
      group: 'zoo' as const,
    },
    { name: 'sakila', database: 'sakila', description: '', truth: SAKILA_TRUTH, group: 'zoo' as const },
    ...PACK.map((p) => ({
      name: p.folder,
      database: p.database,
      description: '',
      truth: p.truth,
      group: p.held_aside ? ('held aside' as const) : ('pack' as const),
    })),
    ...FLAT_FILES.map((f) => ({
      name: f.database,
      database: f.database,
      description: '',
      truth: f.truth,
      group: f.held_aside ? ('flat aside' as const) : ('flat files' as const),
      flat: f,
    })),
  ]
    // A clone without the pack beside it measures the zoo alone, and says so.
    .filter((s) => !only || only.includes(s.name))
    .filter((s) => {
      const packed = s.group === 'pack' || s.group === 'held aside' || s.name === 'sakila';
      if (packed && !fs.existsSync(path.join(DATASETS_DIR, s.name))) {
        console.log(
          `${s.name}: not measured, ${path.join(DATASETS_DIR, s.name)} is missing (PLAT_DATASETS_DIR)`,
        );
        return false;
      }
      return true;
    });

  // The flat files come with the devDependency `vega-datasets`; without it they are not measured.
  const flatDir = flatFilesDir();
  if (sources.some((s) => s.flat) && !fs.existsSync(flatDir)) {
    console.log(`flat files: not measured, ${flatDir} is missing (npm ci, or PLAT_FLAT_FILES_DIR)`);
    sources.splice(0, sources.length, ...sources.filter((s) => !s.flat));
  }

  const loadStarted = Date.now();
  const admin = await connect();
  try {
    for (const s of sources) {
      if (s.flat) await loadFlatFile(admin, flatDir, s.flat);
      else if (s.group !== 'zoo' || s.name === 'sakila')
        await loadPackDataset(mariadbProgram('mariadb'), db.socket, s.name);
      else if (s.name === 'demo_store') await loadDemoDatabase(mysqlConnectionTarget(admin), { scale: 0.1 });
      else
        await loadGeneratedDatabase(
          mysqlConnectionTarget(admin),
          ZOO.find((z) => z.name === s.name)!.generate(),
        );
    }
  } finally {
    await admin.end();
  }
  console.log(`loaded ${sources.length} sources in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s\n`);

  const totals = new Map<Source['group'], { right: number; all: number }>();
  try {
    for (const s of sources) {
      const started = Date.now();
      const connection = await connect(s.database);
      let checks: Check[];
      try {
        const root = path.join(scratch, 'warehouse', s.name);
        const source = sourceConnector(
          { host: db.host, port: db.port, database: s.database, options: {} },
          db.user,
          db.password,
        );
        const projectId = `proj-20261128-${s.name
          .replace(/[^a-z0-9]/gi, '')
          .toLowerCase()
          .slice(0, 8)}`;
        const built = await buildProject(connection, source, s.database, s.description, root, projectId);
        if (process.env.BENCH_PRD_DIR) {
          fs.mkdirSync(process.env.BENCH_PRD_DIR, { recursive: true });
          fs.writeFileSync(
            path.join(process.env.BENCH_PRD_DIR, `${s.name}.json`),
            JSON.stringify(built.prd, null, 1),
          );
        }
        checks = await reconcileChecks(built, s.truth, connection);
        const profile = await profileProblems(built);
        checks.push({ name: 'data profile', ok: profile.length === 0, problem: profile.join('; ') });
      } catch (err) {
        checks = [
          { name: 'build', ok: false, problem: `the project does not build: ${(err as Error).message}` },
        ];
      } finally {
        await connection.end();
      }
      const right = checks.filter((c) => c.ok).length;
      const total = totals.get(s.group) ?? { right: 0, all: 0 };
      totals.set(s.group, { right: total.right + right, all: total.all + checks.length });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `${s.name.padEnd(28)} ${s.group.padEnd(10)} ${right}/${checks.length} right (${seconds} s)`,
      );
      if (!/aside/.test(s.group) || showHeldAside)
        for (const c of checks.filter((x) => !x.ok)) console.log(`    ✗ ${c.name}: ${c.problem}`);
    }
  } finally {
    await db.service.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log('');
  let right = 0;
  let all = 0;
  for (const [group, t] of totals) {
    right += t.right;
    all += t.all;
    console.log(
      `${group.padEnd(12)} ${t.right}/${t.all} checks right (${((100 * t.right) / t.all).toFixed(1)}%)`,
    );
  }
  console.log(`${'all'.padEnd(12)} ${right}/${all} checks right (${((100 * right) / all).toFixed(1)}%)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
