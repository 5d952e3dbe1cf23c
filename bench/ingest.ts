/**
 * `npm run bench:ingest`: rows/s of plat's ODS copy (MySQL → Parquet) against, in the same run,
 * a plain mysql2 stream that keeps nothing (the ceiling of a mysql2 reader) and connectorx + pyarrow.
 *
 * Environment: BENCH_ROWS (default 5,000,000) sizes the synthetic table; BENCH_ROUNDS (default 5)
 * repeats every measurement, interleaved, compared by best (other load on the machine only ever
 * slows a run down) and by median; BENCH_PARALLEL sets plat's readers (default: plat's own choice).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../shared/paths';
import { benchPython, connectorxCopy } from './ingest-connectorx';
import { platCopy } from './ingest-plat';
import { rawStreamRead, type RawMode } from './ingest-raw';
import { BENCH_DATABASE, benchTableName, ensureBenchTable, startBenchMariaDb } from './ingest-source';

interface Measured {
  label: string;
  runs: number[];
}

const whole = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};

async function main(): Promise<void> {
  const rows = whole('BENCH_ROWS', 5_000_000);
  const rounds = whole('BENCH_ROUNDS', 5);
  const parallel = process.env.BENCH_PARALLEL ? whole('BENCH_PARALLEL', 2) : undefined;
  const log = (line: string) => console.log(line);
  const outDir = path.join(repoRoot, '.data', 'bench', 'out');
  fs.mkdirSync(outDir, { recursive: true });

  log('bench:ingest — MySQL → Parquet');
  const python = await benchPython(log);
  const db = await startBenchMariaDb();
  const stop = () => void db.service.stop().then(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const table = benchTableName(rows);
    log(`  table ${BENCH_DATABASE}.${table}: ${await ensureBenchTable(db, rows, log)}`);
    const options = {
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: BENCH_DATABASE,
    };
    const uri = `mysql://${db.user}:${encodeURIComponent(db.password)}@${db.host}:${db.port}/${BENCH_DATABASE}`;
    const plat: Measured = { label: 'plat ODS copy → Parquet', runs: [] };
    // Beside plat's own choice of readers, the key-range split with two readers.
    const split: Measured = { label: 'plat ODS copy → Parquet, 2 readers (key ranges)', runs: [] };
    const raw: Record<RawMode, Measured> = {
      values: { label: 'raw mysql2 stream, JS values (writes nothing)', runs: [] },
      text: { label: 'raw mysql2 stream, text values (writes nothing)', runs: [] },
    };
    let readers = 1;
    const cx = new Map<number, Measured>();
    const rate = (n: number, seconds: number) => {
      if (n !== rows) throw new Error(`read ${n} rows, expected ${rows}`);
      return n / seconds;
    };
    for (let round = 1; round <= rounds; round++) {
      const p = await platCopy(options, BENCH_DATABASE, table, path.join(outDir, 'plat'), parallel);
      readers = p.readers;
      plat.runs.push(rate(p.rows, p.seconds));
      if (readers !== 2) {
        const two = await platCopy(options, BENCH_DATABASE, table, path.join(outDir, 'plat'), 2);
        split.runs.push(rate(two.rows, two.seconds));
      }
      for (const mode of ['values', 'text'] as RawMode[]) {
        const started = process.hrtime.bigint();
        const n = await rawStreamRead(options, table, mode);
        raw[mode].runs.push(rate(n, Number(process.hrtime.bigint() - started) / 1e9));
      }
      // connectorx on one connection, and split on the key in two like plat's key ranges.
      for (const partitions of [1, 2]) {
        const c = await connectorxCopy(
          python,
          uri,
          table,
          'id',
          partitions,
          path.join(outDir, `connectorx.parquet`),
        );
        const entry = cx.get(partitions) ?? {
          label: `connectorx + pyarrow → Parquet, ${partitions} partition(s)`,
          runs: [],
        };
        entry.runs.push(rate(c.rows, c.seconds));
        cx.set(partitions, entry);
      }
      log(`  round ${round}/${rounds} done`);
    }

    const best = (m: Measured) => Math.max(...m.runs);
    const median = (m: Measured) => {
      const sorted = [...m.runs].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const all = [plat, ...(split.runs.length ? [split] : []), raw.values, raw.text, ...cx.values()];
    log('');
    log(`rows: ${rows.toLocaleString('en')}, rounds: ${rounds}, plat readers: ${readers}, rows/s:`);
    log(`  ${''.padEnd(52)} ${'best'.padStart(9)} ${'median'.padStart(9)}   every run`);
    for (const m of all) {
      log(
        `  ${m.label.padEnd(52)} ${fmt(best(m)).padStart(9)} ${fmt(median(m)).padStart(9)}   ${m.runs.map(fmt).join(', ')}`,
      );
    }
    const cxBy = (stat: (m: Measured) => number) => Math.max(...[...cx.values()].map(stat));
    const ratio = (label: string, stat: (m: Measured) => number, base: number, target: string) =>
      log(`  plat / ${label.padEnd(22)} ${(stat(plat) / base).toFixed(2)}x ${target}`);
    log('');
    for (const [name, stat] of [
      ['best', best],
      ['median', median],
    ] as const) {
      log(`by ${name}:`);
      ratio('raw (JS values)', stat, stat(raw.values), '(target >= 0.80x)');
      ratio('raw (text values)', stat, stat(raw.text), '');
      ratio('connectorx (best split)', stat, cxBy(stat), '(target >= 1.00x)');
    }
    log(
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await db.service.stop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
