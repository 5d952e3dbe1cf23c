/**
 * For tests of the AWS warehouse adapter: moto's server mode (PyPI `moto[server]`, pinned in
 * scripts/versions.env) on a free port, standing in for Glue, Athena and S3. Call in beforeAll;
 * stop in afterAll. moto's Athena runs no SQL: it reports every query SUCCEEDED and answers
 * GetQueryResults from a queue seeded through `seedAthenaResults`.
 */
import type { ColumnInfo, Row } from '@aws-sdk/client-athena';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnService, waitUntil } from '../../scripts/lib/child-service';
import { freePort } from '../../shared/free-port';
import { toolsDir } from '../../shared/paths';

export interface TestMoto {
  /** The endpoint to give every AWS client, e.g. http://127.0.0.1:41234. */
  url: string;
  /** moto's default region: seeded Athena results belong to one region. */
  region: string;
  /** Dummy credentials moto accepts (it checks none). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

/** One seeded Athena result, in GetQueryResults' own shape (first row = header for a SELECT). */
export interface SeededAthenaResult {
  rows: Row[];
  column_info: ColumnInfo[];
}

/** `MOTO_SERVER_PATH`, else the pinned one provisioning installed into `.tools/venv`. */
export function motoServerPath(): string {
  const explicit = process.env.MOTO_SERVER_PATH;
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new Error(`MOTO_SERVER_PATH=${explicit} does not exist`);
    return explicit;
  }
  const pinned = path.join(toolsDir(), 'venv', 'bin', 'moto_server');
  if (!fs.existsSync(pinned)) {
    throw new Error(
      `moto_server not found at ${pinned}: run \`bash scripts/provision.sh --tests\` (installs moto[server] from PyPI) or set MOTO_SERVER_PATH`,
    );
  }
  return pinned;
}

export async function startTestMoto(): Promise<TestMoto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-moto-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = spawnService(
    'moto',
    motoServerPath(),
    ['-H', '127.0.0.1', '-p', String(port)],
    path.join(dir, 'moto.log'),
  );
  await waitUntil('moto_server', async () => (await fetch(`${url}/moto-api/data.json`)).ok, {
    timeoutMs: 30_000,
    service,
  });
  return {
    url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'moto-test', secretAccessKey: 'moto-test' },
    async stop() {
      await service.stop(5_000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Queues results for the next Athena queries: moto hands the first queued result to the next
 * StartQueryExecution, in order, so seed one entry per statement the code under test will start.
 */
export async function seedAthenaResults(moto: TestMoto, results: SeededAthenaResult[]): Promise<void> {
  const res = await fetch(`${moto.url}/moto-api/static/athena/query-results`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ region: moto.region, results }),
  });
  if (res.status !== 201) throw new Error(`seeding Athena results: HTTP ${res.status} ${await res.text()}`);
}

/** A seeded SELECT result: header row plus data rows, with Athena column types. */
export function athenaResult(
  columns: { name: string; type: string }[],
  rows: (string | null)[][],
): SeededAthenaResult {
  const toRow = (values: (string | null)[]): Row => ({
    Data: values.map((v) => (v === null ? {} : { VarCharValue: v })),
  });
  return {
    rows: [toRow(columns.map((c) => c.name)), ...rows.map(toRow)],
    column_info: columns.map((c) => ({ Name: c.name, Label: c.name, Type: c.type })),
  };
}

/** What a statement that returns nothing (CTAS, DDL) answers. */
export const emptyAthenaResult: SeededAthenaResult = { rows: [], column_info: [] };
