/** Filesystem locations derived from the repository root and the configuration. */
import * as path from 'node:path';
import type { PlatConfig } from './config';

/** The repository root (this file lives in `<root>/shared`, or `<root>/dist/shared` when built). */
export const repoRoot =
  path.basename(path.resolve(__dirname, '..')) === 'dist'
    ? path.resolve(__dirname, '..', '..')
    : path.resolve(__dirname, '..');

/** Absolute data directory: PLAT_DATA_DIR resolved against the repo root. */
export function dataDir(config: Pick<PlatConfig, 'PLAT_DATA_DIR'>): string {
  return path.resolve(repoRoot, config.PLAT_DATA_DIR);
}

/** Where provisioning installs tools (PLAT_TOOLS_DIR, default `<root>/.tools`). */
export function toolsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(repoRoot, env.PLAT_TOOLS_DIR || '.tools');
}
