/**
 * The demo database of `npm start -- --with-demo-db`: three years of trading of an outdoor-gear
 * retailer (six stores and a web shop in the US and Canada), generated deterministically.
 */
import { DAY_MS, addYears, utcMidnight } from './calendar';
import { generateCatalog } from './demo-store/catalog';
import { createDemoStoreTables } from './demo-store/demo-store-tables';
import { DEMO_STORE_TRUTH } from './demo-store/demo-store-truth';
import { generateSales } from './demo-store/sales';
import { generateStaff } from './demo-store/staff';
import type { GeneratedDatabase } from './generated-database';
import { SeededRandom } from './random';
import { databaseStatements } from './table-builder';

/** The MySQL database the demo is loaded into. */
export const DEMO_DATABASE_NAME = 'demo_store';
export const DEFAULT_DEMO_SEED = 42;
/** What a user would describe the demo business as. */
export const DEMO_DESCRIPTION = 'Outdoor gear retailer: six stores and a web shop in the US and Canada';

export interface DemoDatabaseOptions {
  /** PRNG seed (default {@link DEFAULT_DEMO_SEED}). */
  seed?: number;
  /**
   * Multiplies orders, their lines, payments, shipments, returns and customers (about 7,000 orders
   * and 20,000 lines at 1, the default); the catalogue, stores and staff stay the same size.
   */
  scale?: number;
  /**
   * The day the data is "as of" (default: now). Only its UTC date counts: history covers the three
   * years before it and stops at its midnight, so nothing lies in the future.
   */
  today?: Date;
}

/**
 * Generates the demo retailer's database. Same seed, scale and UTC date of `today` → byte-identical
 * statements.
 */
export function generateDemoDatabase(options: DemoDatabaseOptions = {}): GeneratedDatabase {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const scale = options.scale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale))
    throw new Error(`scale must be a positive number, got ${scale}`);
  const cutoff = utcMidnight(options.today ?? new Date());
  const windowStart = addYears(cutoff, -3);
  if (cutoff - windowStart < 365 * DAY_MS) throw new Error('the demo needs a window of years');

  const rng = new SeededRandom(seed);
  const tables = createDemoStoreTables();
  const staff = generateStaff(rng.fork('staff'), tables, windowStart, cutoff);
  const products = generateCatalog(rng.fork('catalog'), tables, windowStart, cutoff);
  generateSales({ rng: rng.fork('sales'), tables, staff, products, windowStart, cutoff, scale });

  return {
    name: DEMO_DATABASE_NAME,
    description: DEMO_DESCRIPTION,
    statements: databaseStatements(Object.values(tables)),
    truth: DEMO_STORE_TRUTH,
  };
}
