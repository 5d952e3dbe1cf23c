/**
 * Three years of trading, day by day: how many orders each store gets (season, growth, weekday),
 * at what time, from which customer (new or returning), written through {@link OrderWriter}.
 * Newsletter sign-ups add customers who have not bought yet.
 */
import { DAY_MS, HOUR_MS, dayOfYear } from '../calendar';
import type { SeededRandom } from '../random';
import { seasonFactor, type CatalogProduct } from './catalog';
import { CustomerBook, type Customer } from './customers';
import type { DemoStoreTables } from './demo-store-tables';
import { storeDayIntensity } from './order-intensity';
import { OrderWriter } from './order-placement';
import { REGIONS } from './reference-data';
import type { StoreStaff } from './staff';

/** Expected orders over the whole history at scale 1. */
export const ORDERS_AT_SCALE_1 = 8000;
const INITIAL_CUSTOMERS_AT_SCALE_1 = 300;
const NEWSLETTER_SIGNUPS_AT_SCALE_1 = 220;

export interface SalesInput {
  rng: SeededRandom;
  tables: DemoStoreTables;
  staff: StoreStaff[];
  products: CatalogProduct[];
  windowStart: number;
  /** The snapshot instant (midnight of "today"): nothing happens at or after it. */
  cutoff: number;
  scale: number;
}

/** Generates customers and every sales table. */
export function generateSales(input: SalesInput): void {
  const { rng, tables, staff, products, windowStart, cutoff, scale } = input;
  const customers = new CustomerBook(rng.fork('customers'), tables, cutoff);
  const writer = new OrderWriter(rng, tables, products, cutoff);
  const days: number[] = [];
  for (let day = windowStart; day < cutoff; day += DAY_MS) days.push(day);

  // Customers who registered before the history starts.
  const initial = Math.round(INITIAL_CUSTOMERS_AT_SCALE_1 * scale);
  const before = Array.from({ length: initial }, () => windowStart - rng.int(1, 730 * 24 * 3600) * 1000);
  for (const at of before.sort((a, b) => a - b)) customers.create(at);

  // Normalize the intensities so the expected total is the scaled target.
  let totalIntensity = 0;
  for (const day of days)
    for (const s of staff) totalIntensity += storeDayIntensity(s.store, day, windowStart, s.openedOn);
  const perUnit = (ORDERS_AT_SCALE_1 * scale) / totalIntensity;
  const signupsPerDay = (NEWSLETTER_SIGNUPS_AT_SCALE_1 * scale) / days.length;

  for (const day of days) {
    const doy = dayOfYear(day);
    const productWeights = products.map((p) =>
      p.launchedOn <= day && (p.discontinuedOn === undefined || day <= p.discontinuedOn)
        ? p.popularity * seasonFactor(p.subcategory.season, doy)
        : 0,
    );
    // The day's orders (with their store) and newsletter sign-ups (without), in time order.
    const events: { at: number; store?: StoreStaff }[] = [];
    for (const s of staff) {
      const n = rng.poisson(perUnit * storeDayIntensity(s.store, day, windowStart, s.openedOn));
      for (let i = 0; i < n; i++)
        events.push({ at: day + timeOfDay(rng, s.store.type === 'online'), store: s });
    }
    const signups = rng.poisson(signupsPerDay);
    for (let i = 0; i < signups; i++) events.push({ at: day + rng.int(0, DAY_MS / 1000 - 1) * 1000 });
    events.sort((a, b) => a.at - b.at || (a.store?.store.id ?? 0) - (b.store?.store.id ?? 0));

    for (const { at, store: seller } of events) {
      if (!seller) customers.create(at);
      else {
        const customer = chooseCustomer(rng, customers, at, seller, windowStart, cutoff);
        writer.place({ day, at, seller, customer, productWeights });
      }
    }
  }
  writer.finish();
}

/** Milliseconds after midnight: shop hours with a lunchtime and late-afternoon peak, or any hour online. */
function timeOfDay(rng: SeededRandom, online: boolean): number {
  const hour = online
    ? rng.weighted(
        Array.from({ length: 24 }, (_, h) => h),
        [2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 5, 6, 6, 6, 5, 5, 5, 6, 7, 8, 9, 9, 7, 4],
      )
    : rng.weighted([10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [4, 6, 8, 9, 8, 8, 9, 10, 8, 5]);
  return hour * HOUR_MS + rng.int(0, 3599) * 1000;
}

/** A returning customer, or a new one created just before the order (online) or at the till. */
function chooseCustomer(
  rng: SeededRandom,
  customers: CustomerBook,
  at: number,
  seller: StoreStaff,
  windowStart: number,
  cutoff: number,
): Customer {
  const online = seller.store.type === 'online';
  // The share of first-time buyers falls as the customer base grows.
  const newShare = 0.36 - 0.1 * ((at - windowStart) / (cutoff - windowStart));
  const region = online ? undefined : REGIONS.find((r) => r.id === seller.store.regionId);
  const returning = rng.chance(newShare) ? undefined : customers.pickReturning(region);
  if (returning) return returning;
  return customers.create(at - (online ? rng.int(60, 1500) : rng.int(20, 180)) * 1000, region);
}
