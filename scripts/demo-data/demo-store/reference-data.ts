/**
 * The fixed world of the demo outdoor-gear retailer: geography, stores, the product catalogue's
 * shape, suppliers, carriers and return reasons. Everything random is drawn from these lists.
 */

export interface CountryRef {
  id: number;
  code: string;
  name: string;
}

export const COUNTRIES: CountryRef[] = [
  { id: 1, code: 'US', name: 'United States' },
  { id: 2, code: 'CA', name: 'Canada' },
  { id: 3, code: 'DE', name: 'Germany' },
  { id: 4, code: 'NO', name: 'Norway' },
  { id: 5, code: 'JP', name: 'Japan' },
];

export interface CityRef {
  name: string;
  /** Postal code prefix: three ZIP digits (US) or the forward sortation area's first two characters (CA). */
  postalPrefix: string;
  /** Share of customers living there, relative to the other cities. */
  weight: number;
}

export interface RegionRef {
  id: number;
  countryId: number;
  code: string;
  name: string;
  cities: CityRef[];
}

export const REGIONS: RegionRef[] = [
  {
    id: 1,
    countryId: 1,
    code: 'WA',
    name: 'Washington',
    cities: [
      { name: 'Seattle', postalPrefix: '981', weight: 10 },
      { name: 'Tacoma', postalPrefix: '984', weight: 3 },
      { name: 'Spokane', postalPrefix: '992', weight: 2 },
      { name: 'Bellingham', postalPrefix: '982', weight: 1 },
    ],
  },
  {
    id: 2,
    countryId: 1,
    code: 'OR',
    name: 'Oregon',
    cities: [
      { name: 'Portland', postalPrefix: '972', weight: 7 },
      { name: 'Eugene', postalPrefix: '974', weight: 2 },
      { name: 'Bend', postalPrefix: '977', weight: 2 },
    ],
  },
  {
    id: 3,
    countryId: 1,
    code: 'CO',
    name: 'Colorado',
    cities: [
      { name: 'Denver', postalPrefix: '802', weight: 8 },
      { name: 'Boulder', postalPrefix: '803', weight: 3 },
      { name: 'Fort Collins', postalPrefix: '805', weight: 2 },
      { name: 'Colorado Springs', postalPrefix: '809', weight: 2 },
    ],
  },
  {
    id: 4,
    countryId: 1,
    code: 'UT',
    name: 'Utah',
    cities: [
      { name: 'Salt Lake City', postalPrefix: '841', weight: 5 },
      { name: 'Provo', postalPrefix: '846', weight: 1 },
      { name: 'Ogden', postalPrefix: '844', weight: 1 },
    ],
  },
  {
    id: 5,
    countryId: 1,
    code: 'CA',
    name: 'California',
    cities: [
      { name: 'San Francisco', postalPrefix: '941', weight: 4 },
      { name: 'Sacramento', postalPrefix: '958', weight: 2 },
      { name: 'Oakland', postalPrefix: '946', weight: 2 },
    ],
  },
  {
    id: 6,
    countryId: 1,
    code: 'MT',
    name: 'Montana',
    cities: [
      { name: 'Missoula', postalPrefix: '598', weight: 1 },
      { name: 'Bozeman', postalPrefix: '597', weight: 1 },
    ],
  },
  {
    id: 7,
    countryId: 2,
    code: 'BC',
    name: 'British Columbia',
    cities: [
      { name: 'Vancouver', postalPrefix: 'V6', weight: 7 },
      { name: 'Victoria', postalPrefix: 'V8', weight: 2 },
      { name: 'Kelowna', postalPrefix: 'V1', weight: 1 },
    ],
  },
  {
    id: 8,
    countryId: 2,
    code: 'AB',
    name: 'Alberta',
    cities: [
      { name: 'Calgary', postalPrefix: 'T2', weight: 5 },
      { name: 'Edmonton', postalPrefix: 'T5', weight: 3 },
      { name: 'Canmore', postalPrefix: 'T1', weight: 1 },
    ],
  },
  {
    id: 9,
    countryId: 2,
    code: 'ON',
    name: 'Ontario',
    cities: [
      { name: 'Toronto', postalPrefix: 'M5', weight: 4 },
      { name: 'Ottawa', postalPrefix: 'K1', weight: 2 },
    ],
  },
];

export type StoreType = 'flagship' | 'standard' | 'outlet' | 'online';

export interface StoreRef {
  id: number;
  name: string;
  type: StoreType;
  regionId: number;
  city: string;
  street: string;
  /** Opening date: a fixed date, or a fraction of the generated window (a store opening during it). */
  opened: { date: string } | { windowFraction: number };
  /** Relative sales volume once open. */
  weight: number;
}

/** Store 7 is the web shop: its orders have no sales employee and are shipped. */
export const STORES: StoreRef[] = [
  {
    id: 1,
    name: 'Seattle Flagship',
    type: 'flagship',
    regionId: 1,
    city: 'Seattle',
    street: '1200 Pike Street',
    opened: { date: '2012-04-14' },
    weight: 1.3,
  },
  {
    id: 2,
    name: 'Portland Pearl',
    type: 'standard',
    regionId: 2,
    city: 'Portland',
    street: '415 NW 11th Avenue',
    opened: { date: '2015-09-05' },
    weight: 1.0,
  },
  {
    id: 3,
    name: 'Denver Union',
    type: 'flagship',
    regionId: 3,
    city: 'Denver',
    street: '1701 Wynkoop Street',
    opened: { date: '2014-05-17' },
    weight: 1.2,
  },
  {
    id: 4,
    name: 'Salt Lake Trailhead',
    type: 'standard',
    regionId: 4,
    city: 'Salt Lake City',
    street: '230 S 500 E',
    opened: { date: '2018-03-24' },
    weight: 0.8,
  },
  {
    id: 5,
    name: 'Vancouver Kitsilano',
    type: 'standard',
    regionId: 7,
    city: 'Vancouver',
    street: '2150 W 4th Avenue',
    opened: { date: '2019-06-01' },
    weight: 0.9,
  },
  {
    id: 6,
    name: 'Calgary Outlet',
    type: 'outlet',
    regionId: 8,
    city: 'Calgary',
    street: '88 Crowfoot Way NW',
    opened: { windowFraction: 0.42 },
    weight: 0.7,
  },
  {
    id: 7,
    name: 'Online Shop',
    type: 'online',
    regionId: 1,
    city: 'Seattle',
    street: '1200 Pike Street',
    opened: { date: '2016-11-01' },
    weight: 2.0,
  },
];

export const ONLINE_STORE_ID = 7;

export type Season = 'summer' | 'winter' | 'all';

export interface SubcategoryRef {
  name: string;
  /** SKU prefix. */
  code: string;
  /** List price range in whole dollars. */
  price: [number, number];
  /** Weight range in kilograms. */
  weightKg: [number, number];
  season: Season;
  /** Most units of one product on an order line (consumables are bought several at a time). */
  maxQuantity: number;
  /** Share of sold units returned. */
  returnRate: number;
  models: string[];
}

export interface CategoryRef {
  name: string;
  subcategories: SubcategoryRef[];
}

const sub = (
  name: string,
  code: string,
  price: [number, number],
  weightKg: [number, number],
  season: Season,
  models: string[],
  maxQuantity = 2,
  returnRate = 0.03,
): SubcategoryRef => ({ name, code, price, weightKg, season, models, maxQuantity, returnRate });

/** Top-level categories and their subcategories: product → subcategory → category. */
export const CATEGORIES: CategoryRef[] = [
  {
    name: 'Camping',
    subcategories: [
      sub(
        'Tents',
        'TNT',
        [149, 649],
        [1.2, 4.8],
        'summer',
        [
          'Trailhead 1P',
          'Trailhead 2P',
          'Basecamp 4P',
          'Ultralight 2P',
          'Family Dome 6P',
          'Alpine 2P Four-Season',
        ],
        1,
      ),
      sub('Sleeping Bags', 'SLB', [79, 399], [0.6, 2.2], 'all', [
        'Down 20F',
        'Synthetic 30F',
        'Summer 45F',
        'Expedition 0F',
        'Kids Mummy',
      ]),
      sub(
        'Stoves & Cookware',
        'CKW',
        [19, 179],
        [0.1, 1.5],
        'summer',
        ['Canister Stove', 'Titanium Pot 750', 'Cook Set 2P', 'Folding Spork'],
        3,
      ),
      sub(
        'Camp Fuel',
        'FUL',
        [6, 12],
        [0.3, 0.5],
        'summer',
        ['Fuel Canister 230g', 'Fuel Canister 450g'],
        6,
        0.005,
      ),
      sub('Camp Furniture', 'FRN', [39, 159], [0.9, 4.5], 'summer', [
        'Camp Chair',
        'Folding Table',
        'Hammock',
        'Camp Cot',
      ]),
    ],
  },
  {
    name: 'Climbing',
    subcategories: [
      sub(
        'Ropes',
        'ROP',
        [149, 329],
        [3.5, 4.6],
        'all',
        ['Dynamic 9.5mm 60m', 'Dynamic 9.8mm 70m', 'Static 10mm 40m'],
        1,
      ),
      sub(
        'Harnesses',
        'HRN',
        [59, 149],
        [0.3, 0.6],
        'all',
        ['Sport Harness', 'Alpine Harness', 'Kids Harness'],
        2,
        0.05,
      ),
      sub(
        'Climbing Hardware',
        'HDW',
        [9, 39],
        [0.05, 0.2],
        'all',
        ['Locking Carabiner', 'Wiregate Carabiner', 'Quickdraw 12cm', 'Belay Device'],
        6,
        0.01,
      ),
    ],
  },
  {
    name: 'Hiking',
    subcategories: [
      sub(
        'Backpacks',
        'BPK',
        [49, 329],
        [0.5, 2.4],
        'all',
        ['Daypack 22L', 'Trail 35L', 'Trek 55L', 'Expedition 70L', 'Hydration 12L'],
        1,
        0.05,
      ),
      sub(
        'Trekking Poles',
        'TRP',
        [49, 169],
        [0.4, 0.6],
        'summer',
        ['Aluminum Poles', 'Carbon Poles', 'Folding Poles'],
        1,
      ),
      sub(
        'Navigation',
        'NAV',
        [19, 399],
        [0.05, 0.3],
        'all',
        ['Baseplate Compass', 'GPS Handheld', 'Trail Map Set'],
        2,
      ),
    ],
  },
  {
    name: 'Water Sports',
    subcategories: [
      sub(
        'Kayaks & Paddles',
        'KYK',
        [89, 1299],
        [0.8, 22],
        'summer',
        ['Touring Kayak', 'Inflatable Kayak', 'Carbon Paddle', 'Aluminum Paddle'],
        1,
      ),
      sub(
        'Life Jackets',
        'PFD',
        [59, 149],
        [0.5, 1.1],
        'summer',
        ['Touring PFD', 'Kids PFD', 'Inflatable PFD'],
        3,
      ),
    ],
  },
  {
    name: 'Snow Sports',
    subcategories: [
      sub(
        'Skis',
        'SKI',
        [349, 899],
        [2.8, 4.2],
        'winter',
        ['All-Mountain 170', 'Powder 184', 'Touring 176'],
        1,
      ),
      sub(
        'Snowboards',
        'SNB',
        [299, 649],
        [2.6, 3.6],
        'winter',
        ['Freeride 156', 'All-Mountain 158', 'Park 152'],
        1,
      ),
      sub('Snowshoes', 'SNS', [99, 279], [1.6, 2.2], 'winter', ['Trail Snowshoes', 'Mountain Snowshoes'], 2),
    ],
  },
  {
    name: 'Clothing',
    subcategories: [
      sub(
        'Jackets',
        'JKT',
        [99, 449],
        [0.3, 1.2],
        'all',
        ['Rain Shell', 'Down Jacket', 'Softshell', 'Insulated Parka'],
        1,
        0.08,
      ),
      sub(
        'Base Layers',
        'BSL',
        [39, 109],
        [0.15, 0.3],
        'winter',
        ['Merino Crew', 'Merino Bottoms', 'Synthetic Tee'],
        3,
        0.08,
      ),
      sub(
        'Pants',
        'PNT',
        [59, 179],
        [0.3, 0.6],
        'all',
        ['Hiking Pants', 'Convertible Pants', 'Rain Pants'],
        2,
        0.08,
      ),
    ],
  },
  {
    name: 'Footwear',
    subcategories: [
      sub(
        'Hiking Boots',
        'BOT',
        [129, 289],
        [1.0, 1.6],
        'all',
        ['Mid Waterproof Boot', 'Leather Boot', 'Light Hiker'],
        1,
        0.1,
      ),
      sub(
        'Trail Runners',
        'TRN',
        [99, 169],
        [0.5, 0.7],
        'summer',
        ['Trail Runner', 'Max Cushion Trail'],
        1,
        0.1,
      ),
      sub('Sandals', 'SND', [39, 99], [0.4, 0.7], 'summer', ['Sport Sandal', 'River Sandal'], 1, 0.08),
    ],
  },
  {
    name: 'Accessories',
    subcategories: [
      sub(
        'Headlamps',
        'HLP',
        [19, 99],
        [0.08, 0.2],
        'all',
        ['Headlamp 300', 'Headlamp 600', 'Rechargeable Headlamp'],
        2,
      ),
      sub(
        'Water Bottles & Filters',
        'WTR',
        [12, 119],
        [0.1, 0.6],
        'summer',
        ['Insulated Bottle 750ml', 'Squeeze Filter', 'Pump Filter'],
        3,
      ),
      sub(
        'Socks',
        'SCK',
        [14, 29],
        [0.05, 0.1],
        'all',
        ['Merino Hiking Socks', 'Light Trail Socks', 'Ski Socks'],
        4,
        0.02,
      ),
    ],
  },
];

export interface SupplierRef {
  name: string;
  /** Brand printed in product names. */
  brand: string;
  countryId: number;
  leadTimeDays: number;
}

export const SUPPLIERS: SupplierRef[] = [
  { name: 'Ridgeline Gear Inc.', brand: 'Ridgeline', countryId: 1, leadTimeDays: 14 },
  { name: 'Alpenglow Equipment LLC', brand: 'Alpenglow', countryId: 1, leadTimeDays: 21 },
  { name: 'Cascade Works', brand: 'Cascade', countryId: 1, leadTimeDays: 10 },
  { name: 'Tundra Labs Ltd.', brand: 'Tundra', countryId: 2, leadTimeDays: 18 },
  { name: 'Riverbend Outdoor Co.', brand: 'Riverbend', countryId: 1, leadTimeDays: 12 },
  { name: 'Northbound Supply', brand: 'Northbound', countryId: 2, leadTimeDays: 16 },
  { name: 'Fjellstad AS', brand: 'Fjellstad', countryId: 4, leadTimeDays: 35 },
  { name: 'Bergwerk GmbH', brand: 'Bergwerk', countryId: 3, leadTimeDays: 30 },
  { name: 'Kumo Outdoor K.K.', brand: 'Kumo', countryId: 5, leadTimeDays: 45 },
];

/** Parcel carriers by customer country code. */
export const CARRIERS: Record<string, string[]> = {
  US: ['UPS', 'FedEx', 'USPS'],
  CA: ['Canada Post', 'Purolator'],
};

export interface ReturnReasonRef {
  code: string;
  label: string;
  weight: number;
  /** Reason more likely for clothing and footwear. */
  fit: boolean;
}

export const RETURN_REASONS: ReturnReasonRef[] = [
  { code: 'SIZE', label: 'Wrong size or fit', weight: 2, fit: true },
  { code: 'DEFECT', label: 'Defective item', weight: 2, fit: false },
  { code: 'NOT_AS_DESCRIBED', label: 'Not as described', weight: 2, fit: false },
  { code: 'CHANGED_MIND', label: 'Changed mind', weight: 3, fit: false },
  { code: 'DAMAGED', label: 'Damaged in transit', weight: 1, fit: false },
  { code: 'LATE', label: 'Arrived too late', weight: 1, fit: false },
];

export const STORE_JOB_TITLES = ['Assistant Manager', 'Sales Associate', 'Gear Specialist', 'Cashier'];
export const ONLINE_JOB_TITLES = ['Customer Service Agent', 'Fulfilment Specialist'];
