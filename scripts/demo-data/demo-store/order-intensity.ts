/**
 * How many orders a store expects on a day, before scaling: business growth, the outdoor season
 * (summer peak, January slump), the holiday rush with Black Friday and Cyber Monday, weekdays, and
 * the days physical stores are closed.
 */
import { DAY_MS, dayOfYear, monthAndDay, utcDate, weekday } from '../calendar';
import type { StoreRef } from './reference-data';

/** Sales grow this much per year. */
const YEARLY_GROWTH = 1.28;
/** Sunday … Saturday. */
const PHYSICAL_WEEKDAY = [1.0, 0.75, 0.8, 0.85, 0.95, 1.15, 1.5];
const ONLINE_WEEKDAY = [1.15, 1.05, 0.95, 0.95, 0.9, 0.85, 1.0];

/** The day after the fourth Thursday of November. */
export function blackFriday(year: number): number {
  const firstOfNovember = utcDate(year, 11, 1);
  const firstThursday = 1 + ((4 - weekday(firstOfNovember) + 7) % 7);
  return utcDate(year, 11, firstThursday + 22);
}

/** Thanksgiving, Christmas Day and New Year's Day: physical stores closed. */
export function storesClosed(day: number): boolean {
  const { month, day: dom } = monthAndDay(day);
  const year = new Date(day).getUTCFullYear();
  return (month === 12 && dom === 25) || (month === 1 && dom === 1) || day === blackFriday(year) - DAY_MS;
}

/** True from Black Friday through Cyber Monday. */
export function isBlackFridayWeekend(day: number): boolean {
  const bf = blackFriday(new Date(day).getUTCFullYear());
  return day >= bf && day <= bf + 3 * DAY_MS;
}

/** Relative order volume of the whole business on a day, without the store's own weight. */
function seasonal(day: number, online: boolean): number {
  const doy = dayOfYear(day);
  // Camping and hiking peak in early July; snow gear keeps winter from collapsing completely.
  let factor = 1 + 0.32 * Math.cos((2 * Math.PI * (doy - 190)) / 365);
  const { month, day: dom } = monthAndDay(day);
  if ((month === 11 && dom >= 20) || (month === 12 && dom <= 22)) factor *= 1.45;
  if (month === 12 && dom >= 26) factor *= 0.8;
  if (isBlackFridayWeekend(day)) factor *= online ? 3.2 : 2.4;
  return factor * (online ? ONLINE_WEEKDAY : PHYSICAL_WEEKDAY)[weekday(day)];
}

/**
 * Relative expected orders of `store` on `day` (0 before it opened or when closed).
 * @param windowStart first day of generated history, where growth is 1
 * @param openedOn the store's opening day
 */
export function storeDayIntensity(
  store: StoreRef,
  day: number,
  windowStart: number,
  openedOn: number,
): number {
  if (day < openedOn) return 0;
  const online = store.type === 'online';
  if (!online && storesClosed(day)) return 0;
  const years = (day - windowStart) / (365.25 * DAY_MS);
  // The web shop's share grows faster than the stores'.
  const growth = YEARLY_GROWTH ** years * (online ? 1 + 0.22 * years : 1);
  // A new store ramps up over its first three months.
  const ramp = Math.min(1, 0.4 + (0.6 * (day - openedOn)) / (90 * DAY_MS));
  const christmasOnline = online && storesClosed(day) ? 0.35 : 1;
  return store.weight * growth * ramp * seasonal(day, online) * christmasOnline;
}
