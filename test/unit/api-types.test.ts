/**
 * The clients' generated types (shared/generated/, docs/architecture.md#one-contract-per-service) are
 * those of the services' current OpenAPI documents: a route whose schema changes without
 * `npm run api:types` fails here, naming the stale file. (The generator is ESM-only, so it runs as
 * the script it is, outside jest's module system.)
 */
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../../shared/paths';

describe('generated API types', () => {
  it('match the documents the routes describe', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/write-api-types.ts', '--check'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect([run.status, run.stderr.trim()]).toEqual([0, '']);
  });
});
