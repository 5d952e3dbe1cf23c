/** Loads the demo retailer's database for `npm start -- --with-demo-db`, skipping it when current. */
import { formatDate, utcMidnight } from './calendar';
import {
  DEFAULT_DEMO_SEED,
  DEMO_DATABASE_NAME,
  generateDemoDatabase,
  type DemoDatabaseOptions,
} from './demo-database';
import { generatorVersion } from './generator-version';
import { ensureDatabase, type LoadResult, type SqlTarget } from './load-database';

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
