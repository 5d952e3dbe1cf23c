/** Countries, regions, stores and employees (birth and hire dates: dates that are not event times). */
import { DAY_MS, formatDate, formatDateTime } from '../calendar';
import { emailAddress, personName } from '../names';
import type { SeededRandom } from '../random';
import type { DemoStoreTables } from './demo-store-tables';
import {
  COUNTRIES,
  ONLINE_JOB_TITLES,
  REGIONS,
  STORE_JOB_TITLES,
  STORES,
  type StoreRef,
} from './reference-data';

export interface StoreStaff {
  store: StoreRef;
  openedOn: number;
  /** Employees who can ring up a sale, with their hire day. */
  sellers: { id: number; hiredOn: number }[];
}

const AREA_CODES: Record<string, string> = {
  Seattle: '206',
  Portland: '503',
  Denver: '303',
  'Salt Lake City': '801',
  Vancouver: '604',
  Calgary: '403',
};

/** The opening day of a store: fixed, or a fraction into the generated window. */
export function storeOpeningDay(store: StoreRef, windowStart: number, cutoff: number): number {
  if ('date' in store.opened) return Date.parse(`${store.opened.date}T00:00:00Z`);
  const days = Math.round(((cutoff - windowStart) / DAY_MS) * store.opened.windowFraction);
  return windowStart + days * DAY_MS;
}

/** Fills countries, regions, stores and employees; returns who can sell where. */
export function generateStaff(
  rng: SeededRandom,
  tables: DemoStoreTables,
  windowStart: number,
  cutoff: number,
): StoreStaff[] {
  const setUp = formatDateTime(Date.parse('2012-01-09T09:30:00Z'));
  for (const country of COUNTRIES) {
    tables.countries.add({
      country_id: country.id,
      country_code: country.code,
      name: country.name,
      last_update: setUp,
    });
  }
  for (const region of REGIONS) {
    tables.regions.add({
      region_id: region.id,
      country_id: region.countryId,
      region_code: region.code,
      name: region.name,
      last_update: setUp,
    });
  }

  const staff: StoreStaff[] = [];
  let employeeId = 0;
  let headOfRetail = 0;
  for (const store of STORES) {
    const openedOn = storeOpeningDay(store, windowStart, cutoff);
    tables.stores.add({
      store_id: store.id,
      store_name: store.name,
      store_type: store.type,
      region_id: store.regionId,
      city: store.city,
      street_address: store.street,
      phone: `+1 ${AREA_CODES[store.city]}-555-01${String(10 + store.id * 7).slice(-2)}`,
      opened_on: formatDate(openedOn),
      last_update: formatDateTime(Math.min(openedOn, cutoff - DAY_MS) - 20 * DAY_MS + rng.int(0, 36_000_000)),
    });

    const online = store.type === 'online';
    const headcount = online ? rng.int(3, 4) : rng.int(5, 8);
    const sellers: StoreStaff['sellers'] = [];
    let managerId = 0;
    for (let i = 0; i < headcount; i++) {
      const id = ++employeeId;
      const name = personName(rng);
      const isManager = i === 0;
      // Managers start before the store opens; others join over the years (staff turnover).
      const hiredOn = isManager
        ? openedOn - rng.int(20, 90) * DAY_MS
        : rng.chance(0.5)
          ? openedOn + rng.int(0, 120) * DAY_MS
          : Math.max(openedOn, windowStart) +
            rng.int(0, Math.floor((cutoff - windowStart) / DAY_MS) - 30) * DAY_MS;
      const ageAtHire = rng.int(19, 55);
      const bornOn = hiredOn - (ageAtHire * 365 + rng.int(0, 364)) * DAY_MS;
      const title = isManager
        ? store.id === 1
          ? 'Head of Retail'
          : online
            ? 'E-commerce Manager'
            : 'Store Manager'
        : rng.pick(online ? ONLINE_JOB_TITLES : STORE_JOB_TITLES);
      tables.employees.add({
        employee_id: id,
        store_id: store.id,
        manager_id: isManager ? headOfRetail || null : managerId,
        first_name: name.first,
        last_name: name.last,
        email: emailAddress(name, id, 'staff.example.com'),
        job_title: title,
        birth_date: formatDate(bornOn),
        hire_date: formatDate(hiredOn),
        last_update: formatDateTime(Math.min(hiredOn + rng.int(1, 400) * DAY_MS, cutoff - DAY_MS)),
      });
      if (isManager) {
        managerId = id;
        if (!headOfRetail) headOfRetail = id;
      }
      sellers.push({ id, hiredOn });
    }
    staff.push({ store, openedOn, sellers });
  }
  return staff;
}
