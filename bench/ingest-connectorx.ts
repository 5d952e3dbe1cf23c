/**
 * The connectorx + pyarrow baseline, run from a virtual environment the benchmark keeps in
 * `.tools/bench-venv` (created and filled from PyPI on first use, so a fresh clone works).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { toolsDir } from '../shared/paths';

const run = promisify(execFile);

/** Pinned so every run measures the same baseline. */
const PACKAGES = ['connectorx==0.4.6', 'pyarrow==26.0.1'];

/** The venv's python, installing the packages first when they are missing. */
export async function benchPython(log: (line: string) => void): Promise<string> {
  const venv = path.join(toolsDir(), 'bench-venv');
  const python = path.join(venv, 'bin', 'python');
  const ready = async () => {
    try {
      await run(python, ['-c', 'import connectorx, pyarrow']);
      return true;
    } catch {
      return false;
    }
  };
  if (await ready()) return python;
  log(`  installing ${PACKAGES.join(', ')} into ${venv}`);
  if (!fs.existsSync(python)) await run('python3', ['-m', 'venv', venv]);
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...PACKAGES], {
    maxBuffer: 16 * 1024 * 1024,
  });
  if (!(await ready())) throw new Error(`connectorx/pyarrow still not importable from ${python}`);
  return python;
}

export interface ConnectorxRun {
  rows: number;
  seconds: number;
}

/** Reads `table` with connectorx (split on `key` when `partitions` > 1) and writes zstd Parquet. */
export async function connectorxCopy(
  python: string,
  uri: string,
  table: string,
  key: string,
  partitions: number,
  outFile: string,
): Promise<ConnectorxRun> {
  const script = path.join(__dirname, 'ingest_connectorx.py');
  const { stdout } = await run(python, [script, uri, table, key, String(partitions), outFile], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ConnectorxRun;
}
