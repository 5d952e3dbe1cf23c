/**
 * schemathesis (PyPI, pinned in scripts/versions.env, installed by `provision.sh --tests` into
 * `.tools/schemathesis-venv`): the property-based run of a service's OpenAPI document, every check,
 * with the coverage, fuzzing and stateful phases.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, toolsDir } from '../../shared/paths';
import { harness } from './harness-state';

/** `SCHEMATHESIS_PATH`, else the pinned one provisioning installed. */
export function schemathesisPath(): string {
  const explicit = process.env.SCHEMATHESIS_PATH;
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new Error(`SCHEMATHESIS_PATH=${explicit} does not exist`);
    return explicit;
  }
  const pinned = path.join(toolsDir(), 'schemathesis-venv', 'bin', 'st');
  if (!fs.existsSync(pinned))
    throw new Error(`schemathesis is not installed at ${pinned}: run bash scripts/provision.sh --tests`);
  return pinned;
}

export interface SchemathesisRun {
  exitCode: number | null;
  output: string;
  /**
   * The output with its FAILURES section first: a CI log that keeps only a run's head and tail
   * still shows what failed and the curl that reproduces it.
   */
  report: string;
  /** The run's count line: "N generated, N passed" or how many failures it found. */
  summary: string;
  /** How many operations the run selected, of how many the document has. */
  selected?: { operations: number; of: number };
}

/**
 * schemathesis's test phases: the document's examples, each operation's boundaries, random cases,
 * and link-following sequences.
 */
export type SchemathesisPhase = 'examples' | 'coverage' | 'fuzzing' | 'stateful';
const ALL_PHASES: readonly SchemathesisPhase[] = ['examples', 'coverage', 'fuzzing', 'stateful'];

/** The contract tests' settings (which statuses answer a well-shaped request). */
const CONFIG_FILE = path.join(repoRoot, 'test', 'contract', 'schemathesis.toml');

/**
 * Runs every check against the document at `schema` (a URL, or a file with `baseUrl`), seeded so a
 * failure can be replayed.
 */
export function runSchemathesis(
  schema: string,
  opts: {
    headers?: Record<string, string>;
    maxExamples?: number;
    seed?: number;
    baseUrl?: string;
    /** Default: all four (examples, coverage, fuzzing, stateful). */
    phases?: readonly SchemathesisPhase[];
    /** Only the operations whose path matches (a regular expression). */
    includePaths?: string;
    /** Not the operations whose path matches (a regular expression). */
    excludePaths?: string;
  } = {},
): Promise<SchemathesisRun> {
  const args = [
    '--config-file',
    CONFIG_FILE,
    'run',
    schema,
    ...(opts.baseUrl ? ['--url', opts.baseUrl] : []),
    ...(opts.includePaths ? ['--include-path-regex', opts.includePaths] : []),
    ...(opts.excludePaths ? ['--exclude-path-regex', opts.excludePaths] : []),
    '--checks',
    'all',
    '--phases',
    (opts.phases ?? ALL_PHASES).join(','),
    '--max-examples',
    String(opts.maxExamples ?? 40),
    '--seed',
    String(opts.seed ?? 20261123),
    '--no-color',
    '--workers',
    '1',
    ...Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(schemathesisPath(), args, {
      // It keeps a cache in its working directory: the test run's own, not the checkout.
      cwd: harness().runDir,
      env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      const counts = output.split('\n').filter((l) => /\d+ generated/.test(l));
      const selected = /Selected: (\d+)\/(\d+)/.exec(output);
      resolve({
        exitCode,
        output,
        report: failuresFirst(output),
        summary: (counts.at(-1) ?? '').trim(),
        selected: selected ? { operations: Number(selected[1]), of: Number(selected[2]) } : undefined,
      });
    });
  });
}

/** `output` with the section between its FAILURES and WARNINGS (or SUMMARY) banners moved first. */
function failuresFirst(output: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => /^=+ FAILURES =+$/.test(l.trim()));
  if (start < 0) return output;
  const after = lines.slice(start + 1).findIndex((l) => /^=+ (WARNINGS|SUMMARY) =+$/.test(l.trim()));
  const end = after < 0 ? lines.length : start + 1 + after;
  return [...lines.slice(start, end), '', '(the whole run follows)', output].join('\n');
}
