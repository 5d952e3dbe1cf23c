import * as fs from 'node:fs';
import * as path from 'node:path';
import { DBT_REQUIREMENTS } from '../../domain/pipeline/dbt/dbt-project';
import { repoRoot } from '../../shared/paths';

it('tells users of an exported dbt project the versions its test builds it with', () => {
  const env = Object.fromEntries(
    fs
      .readFileSync(path.join(repoRoot, 'scripts', 'versions.env'), 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.split('=') as [string, string]),
  );
  expect(DBT_REQUIREMENTS).toBe(
    `dbt-core==${env.DBT_CORE_VERSION} dbt-duckdb==${env.DBT_DUCKDB_VERSION} duckdb==${env.DBT_DUCKDB_ENGINE_VERSION}`,
  );
});
