/**
 * Bundling workflow code with webpack takes seconds on 2 cores; a restart with unchanged code
 * reuses the bundle written last time (keyed by a hash of every source the bundle can contain).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BundleOptions, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { repoRoot } from '../shared/paths';

/** Workflows may import from these folders only (see eslint.config.mjs). */
const BUNDLED_DIRS = ['workflows', 'shared'];

export async function cachedWorkflowBundle(
  workflowsPath: string,
  cacheDir: string,
  bundle: (opts: BundleOptions) => Promise<WorkflowBundleWithSourceMap>,
): Promise<WorkflowBundleWithSourceMap> {
  const key = sourceHash();
  const codeFile = path.join(cacheDir, `workflow-bundle-${key}.js`);
  const mapFile = `${codeFile}.map`;
  if (fs.existsSync(codeFile) && fs.existsSync(mapFile)) {
    return { code: fs.readFileSync(codeFile, 'utf8'), sourceMap: fs.readFileSync(mapFile, 'utf8') };
  }
  const built = await bundle({ workflowsPath });
  fs.mkdirSync(cacheDir, { recursive: true });
  for (const old of fs.readdirSync(cacheDir).filter((f) => f.startsWith('workflow-bundle-'))) {
    fs.rmSync(path.join(cacheDir, old), { force: true });
  }
  // Write under a temporary name, then rename: a crash mid-write never leaves a torn bundle.
  fs.writeFileSync(`${mapFile}.tmp`, built.sourceMap);
  fs.writeFileSync(`${codeFile}.tmp`, built.code);
  fs.renameSync(`${mapFile}.tmp`, mapFile);
  fs.renameSync(`${codeFile}.tmp`, codeFile);
  return built;
}

function sourceHash(): string {
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
