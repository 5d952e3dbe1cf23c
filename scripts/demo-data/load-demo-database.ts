/**
 * Loads the demo retailer's database for `npm start -- --with-demo-db` (and the schema zoo's for
 * `--with-zoo`), skipping each when current.
 */
import { formatDate, utcMidnight } from './calendar';
import {
  DEFAULT_DEMO_SEED,
  DEMO_DATABASE_NAME,
  generateDemoDatabase,
  type DemoDatabaseOptions,
} from './demo-database';
import { generatorVersion } from './generator-version';
import { ensureDatabase, type LoadResult, type SqlTarget } from './load-database';
import type { ZooSchema } from './zoo';

/**
 * Loads database `demo_store` unless it already holds what these options generate. The fingerprint
 * names the generator version, seed, scale and the UTC date the data is "as of": on a new day the
 * demo is regenerated (a few seconds), so its history always ends yesterday and dashboards over
 * "the last 30 days" stay full.
 */
export function loadDemoDatabase(target: SqlTarget, options: DemoDatabaseOptions = {}): Promise<LoadResult> {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const scale = options.scale ?? 1;
  const today = new Date(utcMidnight(options.today ?? new Date()));
  return ensureDatabase(target, {
    name: DEMO_DATABASE_NAME,
    fingerprint: `plat demo data ${generatorVersion()}, seed ${seed}, scale ${scale}, as of ${formatDate(today.getTime())}`,
    generate: () => generateDemoDatabase({ seed, scale, today }),
  });
}

/** Loads one schema-zoo database (seed 1, fixed dates) unless it already holds what its generator makes. */
export function loadZooSchema(target: SqlTarget, zoo: ZooSchema): Promise<LoadResult> {
  return ensureDatabase(target, {
    name: zoo.name,
    fingerprint: `plat zoo data ${generatorVersion()}, ${zoo.name}, seed 1`,
    generate: () => zoo.generate({ seed: 1 }),
  });
}
