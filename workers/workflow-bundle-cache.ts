/**
 * Bundling workflow code with webpack takes seconds on 2 cores; a restart with unchanged code
 * reuses the bundle written last time (keyed by a hash of every source the bundle can contain).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BundleOptions, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { repoRoot } from '../shared/paths';

/** Workflows may import from these folders only (see eslint.config.mjs). */
const BUNDLED_DIRS = ['workflows', 'shared'];

/** Bundles of other builds are removed once this old: a replica still starting may be reading one. */
const STALE_BUNDLE_MS = 24 * 3600_000;

/**
 * The bundle of `key` (see `workflowSourceHash`), built once. Replicas sharing the cache folder (compose
 * `--scale`) may build at once: each writes under its own temporary names and renames, so a reader
 * only ever sees a whole file, and only other builds' bundles older than a day are removed.
 */
export async function cachedWorkflowBundle(
  workflowsPath: string,
  cacheDir: string,
  key: string,
  bundle: (opts: BundleOptions) => Promise<WorkflowBundleWithSourceMap>,
): Promise<WorkflowBundleWithSourceMap> {
  const codeFile = path.join(cacheDir, `workflow-bundle-${key}.js`);
  const mapFile = `${codeFile}.map`;
  if (fs.existsSync(codeFile) && fs.existsSync(mapFile)) {
    return { code: fs.readFileSync(codeFile, 'utf8'), sourceMap: fs.readFileSync(mapFile, 'utf8') };
  }
  const built = await bundle({ workflowsPath });
  fs.mkdirSync(cacheDir, { recursive: true });
  removeStaleBundles(cacheDir, key);
  const tmp = `.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(`${mapFile}${tmp}`, built.sourceMap);
  fs.writeFileSync(`${codeFile}${tmp}`, built.code);
  // The map first: a reader that finds the code finds its map.
  fs.renameSync(`${mapFile}${tmp}`, mapFile);
  fs.renameSync(`${codeFile}${tmp}`, codeFile);
  return built;
}

function removeStaleBundles(cacheDir: string, key: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(cacheDir)) {
    if (!name.startsWith('workflow-bundle-') || name.includes(key)) continue;
    const file = path.join(cacheDir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_BUNDLE_MS) fs.rmSync(file, { force: true });
    } catch {
      // Another replica removed it first.
    }
  }
}

/**
 * A hash of every source the workflow bundle can contain: the bundle cache's key and the worker's
 * build id (two workers with the same id run the same workflow code).
 */
export function workflowSourceHash(): string {
  const hash = createHash('sha256');
  const files = BUNDLED_DIRS.flatMap((dir) => listFiles(path.join(repoRoot, dir))).sort();
  files.push(path.join(repoRoot, 'package-lock.json'));
  for (const file of files) {
    hash.update(path.relative(repoRoot, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return /\.(ts|js|json)$/.test(entry.name) ? [full] : [];
  });
}
