/**
 * The customer register: customers are created as they sign up (at a till, online, or for the
 * newsletter), so ids rise with `created_at`; returning customers are drawn with a loyalty bias.
 */
import { DAY_MS, formatDateTime } from '../calendar';
import { emailAddress, personName } from '../names';
import type { SeededRandom } from '../random';
import type { DemoStoreTables } from './demo-store-tables';
import { COUNTRIES, REGIONS, type CityRef, type RegionRef } from './reference-data';

export interface Customer {
  id: number;
  region: RegionRef;
  countryCode: string;
  loyaltyMember: boolean;
}

const AREA_CODES: Record<string, string[]> = {
  WA: ['206', '253', '360', '509'],
  OR: ['503', '541'],
  CO: ['303', '719', '970'],
  UT: ['801', '435'],
  CA: ['415', '916', '510'],
  MT: ['406'],
  BC: ['604', '250'],
  AB: ['403', '780'],
  ON: ['416', '613'],
};

const LETTERS = 'ABCEGHJKLMNPRSTVXY';

const ALL_CITIES: { region: RegionRef; city: CityRef }[] = REGIONS.flatMap((region) =>
  region.cities.map((city) => ({ region, city })),
);

/** Creates customers into the `customers` table and picks returning ones. */
export class CustomerBook {
  private readonly everyone: Customer[] = [];
  /** Customer indexes repeated by loyalty, per region and overall, for biased picks. */
  private readonly regionTickets = new Map<number, number[]>();
  private readonly allTickets: number[] = [];

  constructor(
    private readonly rng: SeededRandom,
    private readonly tables: DemoStoreTables,
    private readonly cutoff: number,
  ) {}

  get count(): number {
    return this.everyone.length;
  }

  /** A new customer created at `at`, living in `region` (or anywhere, by population). */
  create(at: number, region?: RegionRef): Customer {
    const rng = this.rng;
    const home = region
      ? {
          region,
          city: rng.weighted(
            region.cities,
            region.cities.map((c) => c.weight),
          ),
        }
      : rng.weighted(
          ALL_CITIES,
          ALL_CITIES.map((c) => c.city.weight * (c.region.countryId === 1 ? 1 : 0.8)),
        );
    const country = COUNTRIES.find((c) => c.id === home.region.countryId)!;
    const id = this.everyone.length + 1;
    const name = personName(rng);
    const customer: Customer = {
      id,
      region: home.region,
      countryCode: country.code,
      loyaltyMember: rng.chance(0.3),
    };
    const edited = rng.chance(0.3) ? at + rng.int(1, 600) * DAY_MS : at;
    this.tables.customers.add({
      customer_id: id,
      first_name: name.first,
      last_name: name.last,
      email: emailAddress(name, id, rng.pick(['example.com', 'example.net', 'example.org'])),
      phone: rng.chance(0.15)
        ? null
        : `+1 ${rng.pick(AREA_CODES[home.region.code])}-555-01${String(rng.int(0, 99)).padStart(2, '0')}`,
      city: home.city.name,
      postal_code: this.postalCode(home.city.postalPrefix, country.code),
      country_id: country.id,
      loyalty_member: customer.loyaltyMember ? 1 : 0,
      created_at: formatDateTime(at),
      last_update: formatDateTime(Math.min(edited, this.cutoff - rng.int(60, 3600) * 1000)),
    });
    this.everyone.push(customer);
    // Few customers come back often, most rarely: a heavy-tailed number of tickets.
    const tickets = Math.min(
      12,
      1 + Math.floor(-Math.log(1 - rng.next()) * (customer.loyaltyMember ? 3 : 1.2)),
    );
    const regional = this.regionTickets.get(home.region.id) ?? [];
    this.regionTickets.set(home.region.id, regional);
    for (let i = 0; i < tickets; i++) {
      regional.push(id - 1);
      this.allTickets.push(id - 1);
    }
    return customer;
  }

  /** A returning customer from `region` (or anywhere); undefined when there is none yet. */
  pickReturning(region?: RegionRef): Customer | undefined {
    const tickets = region ? this.regionTickets.get(region.id) : this.allTickets;
    if (!tickets?.length) return undefined;
    return this.everyone[this.rng.pick(tickets)];
  }

  private postalCode(prefix: string, countryCode: string): string {
    const rng = this.rng;
    if (countryCode === 'US') return prefix + String(rng.int(0, 99)).padStart(2, '0');
    // Canadian codes alternate letter and digit: prefix "V6" → "V6K 2G4".
    return `${prefix}${rng.pick([...LETTERS])} ${rng.int(0, 9)}${rng.pick([...LETTERS])}${rng.int(0, 9)}`;
  }
}
