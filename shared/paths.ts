/** Filesystem locations derived from the repository root and the configuration. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlatConfig } from './config';

/**
 * The repository root: the nearest folder above this file's with a package.json (this file lives in
 * `<root>/shared`, or in a compiled copy under `<root>/dist/`).
 */
export const repoRoot = nearestPackageRoot(path.resolve(__dirname, '..'));

function nearestPackageRoot(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir))
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  return from;
}

/** Absolute data directory: PLAT_DATA_DIR resolved against the repo root. */
export function dataDir(config: Pick<PlatConfig, 'PLAT_DATA_DIR'>): string {
  return path.resolve(repoRoot, config.PLAT_DATA_DIR);
}

/** Where provisioning installs tools (PLAT_TOOLS_DIR, default `<root>/.tools`). */
export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(repoRoot, env.PLAT_TOOLS_DIR || '.tools');
}
