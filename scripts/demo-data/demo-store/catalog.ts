/**
 * The product catalogue: two-level categories (a snowflake: product → subcategory → parent
 * category), suppliers, and products with SKU, list price, cost, weight, launch date and status.
 */
import { DAY_MS, formatDate, formatDateTime } from '../calendar';
import type { SeededRandom } from '../random';
import { decimal, money } from '../sql-literals';
import type { DemoStoreTables } from './demo-store-tables';
import { CATEGORIES, SUPPLIERS, type Season, type SubcategoryRef } from './reference-data';

/** What the sales generator needs to know about a product. */
export interface CatalogProduct {
  id: number;
  subcategory: SubcategoryRef;
  topCategory: string;
  /** Current list price in cents. */
  listCents: number;
  launchedOn: number;
  /** Last day it sold (discontinued products), else undefined. */
  discontinuedOn?: number;
  /** Relative popularity within the catalogue. */
  popularity: number;
}

/** Demand multiplier of a season on a day of the year (summer peaks in July, winter in January). */
export function seasonFactor(season: Season, doy: number): number {
  if (season === 'all') return 1;
  const peak = season === 'summer' ? 190 : 15;
  return Math.max(0.08, 1 + 0.9 * Math.cos((2 * Math.PI * (doy - peak)) / 365));
}

/** A price in cents ending in .95 or .99, as shops price. */
function shopPrice(rng: SeededRandom, [min, max]: [number, number]): number {
  const dollars = Math.floor(rng.float(min, max));
  return dollars * 100 + (rng.chance(0.5) ? 95 : 99);
}

/**
 * Fills categories, suppliers and products.
 * @param windowStart first day of sales history
 * @param cutoff the snapshot instant (midnight of "today")
 */
export function generateCatalog(
  rng: SeededRandom,
  tables: DemoStoreTables,
  windowStart: number,
  cutoff: number,
): CatalogProduct[] {
  // Audit stamps fall during office hours.
  const audit = (ms: number) => formatDateTime(ms + rng.int(8 * 3600, 18 * 3600) * 1000);
  const catalogueSetUp = windowStart - 400 * DAY_MS;

  let categoryId = 0;
  const subcategoryIds = new Map<SubcategoryRef, number>();
  for (const category of CATEGORIES) {
    const parentId = ++categoryId;
    tables.productCategories.add({
      category_id: parentId,
      parent_category_id: null,
      name: category.name,
      last_update: audit(catalogueSetUp),
    });
    for (const subcategory of category.subcategories) {
      subcategoryIds.set(subcategory, ++categoryId);
      tables.productCategories.add({
        category_id: categoryId,
        parent_category_id: parentId,
        name: subcategory.name,
        last_update: audit(catalogueSetUp + rng.int(0, 300) * DAY_MS),
      });
    }
  }

  SUPPLIERS.forEach((supplier, i) =>
    tables.suppliers.add({
      supplier_id: i + 1,
      supplier_name: supplier.name,
      country_id: supplier.countryId,
      contact_email: `orders@${supplier.brand.toLowerCase()}.example.com`,
      lead_time_days: supplier.leadTimeDays,
      last_update: audit(catalogueSetUp + rng.int(0, 700) * DAY_MS),
    }),
  );

  const products: CatalogProduct[] = [];
  const windowDays = Math.round((cutoff - windowStart) / DAY_MS);
  for (const category of CATEGORIES) {
    for (const subcategory of category.subcategories) {
      for (const model of subcategory.models) {
        // Most models come from one brand, some from two competing brands.
        const supplierIndexes = rng.sample(
          SUPPLIERS.map((_, i) => i),
          rng.chance(0.3) ? 2 : 1,
        );
        for (const supplierIndex of supplierIndexes) {
          const id = products.length + 1;
          const listCents = shopPrice(rng, subcategory.price);
          // Most of the range predates the history; some products launch during it.
          const launchedOn = rng.chance(0.8)
            ? windowStart - rng.int(30, 2000) * DAY_MS
            : windowStart + rng.int(30, windowDays - 60) * DAY_MS;
          const discontinued = rng.chance(0.08) && launchedOn < windowStart;
          const discontinuedOn = discontinued
            ? windowStart + rng.int(120, windowDays - 120) * DAY_MS
            : undefined;
          const [minKg, maxKg] = subcategory.weightKg;
          tables.products.add({
            product_id: id,
            sku: `${subcategory.code}-${String(1000 + id * 7 + rng.int(0, 6)).padStart(5, '0')}`,
            name: `${SUPPLIERS[supplierIndex].brand} ${model}`,
            category_id: subcategoryIds.get(subcategory)!,
            supplier_id: supplierIndex + 1,
            list_price: money(listCents),
            unit_cost: money(Math.round(listCents * rng.float(0.45, 0.62))),
            weight_kg: decimal(Math.max(1, Math.round(rng.float(minKg, maxKg) * 100)), 2),
            launched_on: formatDate(launchedOn),
            is_active: discontinued ? 0 : 1,
            last_update: audit(Math.max(launchedOn, discontinuedOn ?? 0) + rng.int(0, 20) * DAY_MS),
          });
          products.push({
            id,
            subcategory,
            topCategory: category.name,
            listCents,
            launchedOn,
            discontinuedOn,
            // Cheap items sell more often than expensive ones.
            popularity: Math.exp(rng.normal(0, 0.7)) * (15_000 / listCents) ** 0.85,
          });
        }
      }
    }
  }
  return products;
}
