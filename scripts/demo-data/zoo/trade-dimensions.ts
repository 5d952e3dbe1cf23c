/**
 * The `customer` and `product` dimensions shared by the zoo's table-per-year families: companies
 * in a few countries, and articles with a category and a price kept off the table (the lines that
 * sell them carry it).
 */
import { companyName } from '../names';
import type { SeededRandom } from '../random';
import { GeneratedTable } from '../table-builder';

export interface TradeDimensionsSpec {
  customers: number;
  countries: string[];
  products: number;
  /** Range of a product's price in cents, both ends included. */
  priceCents: [number, number];
  /** Product names are this word and a three-digit number (`Item 007`). */
  productWord: string;
  categories: string[];
}

/** Fills `customer` then `product` (ids from 1); `prices[id - 1]` is product `id`'s price in cents. */
export function tradeDimensions(rng: SeededRandom, spec: TradeDimensionsSpec) {
  const customer = new GeneratedTable(
    'customer',
    { customer_id: 'INT NOT NULL', company_name: 'VARCHAR(60) NOT NULL', country: 'CHAR(2) NOT NULL' },
    ['PRIMARY KEY (customer_id)'],
  );
  const product = new GeneratedTable(
    'product',
    { product_id: 'INT NOT NULL', product_name: 'VARCHAR(60) NOT NULL', category: 'VARCHAR(30) NOT NULL' },
    ['PRIMARY KEY (product_id)'],
  );
  for (let i = 1; i <= spec.customers; i++)
    customer.add({
      customer_id: i,
      company_name: `${companyName(rng)} ${i}`,
      country: rng.pick(spec.countries),
    });
  const prices: number[] = [];
  for (let i = 1; i <= spec.products; i++) {
    prices.push(rng.int(...spec.priceCents));
    product.add({
      product_id: i,
      product_name: `${spec.productWord} ${String(i).padStart(3, '0')}`,
      category: spec.categories[i % spec.categories.length],
    });
  }
  return { customer, product, prices };
}
