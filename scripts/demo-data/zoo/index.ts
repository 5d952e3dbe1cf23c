/**
 * The schema zoo: small generated databases (`zoo_*`) that together cover the shapes an analyst
 * must handle, each with its ground truth. See each file's header for what it covers.
 */
import { abbreviatedLedger } from './abbreviated-ledger';
import { bikeShops } from './bike-shops';
import { clinic } from './clinic';
import { craftShop } from './craft-shop';
import { flatSales } from './flat-sales';
import { genericRecords } from './generic-records';
import { germanOrders } from './german-orders';
import { musicStore } from './music-store';
import { prefixedSales } from './prefixed-sales';
import { saasHelpdesk } from './saas-helpdesk';
import { starRollups } from './star-rollups';
import { smallHeader } from './small-header';
import { spreadsheetExport } from './spreadsheet-export';
import { starCalendar } from './star-calendar';
import { toyWholesale } from './toy-wholesale';
import { yearlyOrders } from './yearly-orders';
import { yearlySales } from './yearly-sales';
import type { ZooSchema } from './zoo-schema';

export type { ZooOptions, ZooSchema } from './zoo-schema';

/** Every zoo schema. */
export const ZOO: readonly ZooSchema[] = [
  toyWholesale,
  musicStore,
  saasHelpdesk,
  bikeShops,
  clinic,
  genericRecords,
  prefixedSales,
  abbreviatedLedger,
  starRollups,
  smallHeader,
  starCalendar,
  craftShop,
  yearlySales,
  flatSales,
  yearlyOrders,
  spreadsheetExport,
  germanOrders,
];

/** The zoo schema of that database name; throws naming the known ones otherwise. */
export function zooSchema(name: string): ZooSchema {
  const found = ZOO.find((z) => z.name === name);
  if (!found) throw new Error(`no zoo schema ${name} (known: ${ZOO.map((z) => z.name).join(', ')})`);
  return found;
}
