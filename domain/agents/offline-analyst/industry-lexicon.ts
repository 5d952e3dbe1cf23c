/**
 * Detects the business domain from the user's description and the table and column names: each
 * industry has a lexicon; the description weighs most, then table names, then column names.
 */
import type { SourceSnapshot } from '../../../shared/source-schema';
import { columnWords, singular, singularWords } from './name-words';

interface Industry {
  name: string;
  /**
   * Words that name the business itself ("wholesale", "clinic"): in the description they outrank
   * vocabulary any business shares ("order", "product"), so "toy wholesale orders" is wholesale.
   */
  names: string[];
  /** Words whose presence in a table name (3 points), column name (1) or description (5) counts. */
  words: string[];
  /**
   * What the business deals in, as its rows name it (`Jewelry & Watches`, `GROCERY`): each word
   * found in sampled values counts 1 (at most {@link MAX_VALUE_POINTS} a source).
   */
  goods?: string[];
}

export const INDUSTRIES: Industry[] = [
  {
    name: 'DVD rental / retail',
    names: ['dvd', 'rental', 'video'],
    words: ['film', 'movie', 'rental', 'actor', 'dvd', 'video', 'rent', 'rented'],
  },
  {
    name: 'Music / media store',
    names: ['music', 'media'],
    words: ['track', 'album', 'artist', 'genre', 'playlist', 'song', 'music', 'media', 'composer', 'band'],
  },
  {
    name: 'E-commerce / retail',
    names: ['retail', 'retailer', 'shop', 'store', 'ecommerce', 'webshop'],
    words: [
      'order',
      'product',
      'cart',
      'sku',
      'checkout',
      'coupon',
      'review',
      'seller',
      'catalog',
      'retail',
      'shop',
      'store',
      'ecommerce',
      'basket',
    ],
    // Departments and merchandise categories a shop's catalogue is filed under.
    goods: [
      'jewelry',
      'jewellery',
      'watches',
      'clothing',
      'apparel',
      'shoes',
      'fashion',
      'accessories',
      'toys',
      'toy',
      'collectibles',
      'antiques',
      'crafts',
      'garden',
      'furniture',
      'appliances',
      'electronics',
      'cameras',
      'cosmetics',
      'beauty',
      'grocery',
      'groceries',
      'bakery',
      'dairy',
      'produce',
      'beverages',
      'snacks',
      'cereal',
      'frozen',
      'deli',
      'magazines',
      'stationery',
      'sporting',
      'baby',
      'pet',
    ],
  },
  {
    name: 'Wholesale / trading',
    names: ['wholesale', 'wholesaler', 'trading', 'trader', 'distributor', 'distribution'],
    words: [
      'supplier',
      'shipper',
      'wholesale',
      'trading',
      'distributor',
      'territory',
      'freight',
      'vendor',
      'purchase',
      'procurement',
      'trade',
    ],
  },
  {
    name: 'Banking / finance',
    names: ['bank', 'banking', 'finance', 'fintech'],
    words: [
      'account',
      'transaction',
      'loan',
      'balance',
      'branch',
      'card',
      'deposit',
      'withdrawal',
      'ledger',
      'interest',
      'bank',
      'banking',
      'credit',
      'debit',
    ],
  },
  {
    name: 'Healthcare',
    names: ['healthcare', 'clinic', 'hospital', 'medical', 'health'],
    words: [
      'patient',
      'doctor',
      'physician',
      'appointment',
      'diagnosis',
      'prescription',
      'admission',
      'ward',
      'treatment',
      'clinic',
      'hospital',
      'health',
    ],
  },
  {
    name: 'Education',
    names: ['education', 'school', 'university', 'college', 'elearning'],
    words: [
      'student',
      'course',
      'enrollment',
      'grade',
      'teacher',
      'semester',
      'exam',
      'lesson',
      'school',
      'university',
      'education',
    ],
  },
  {
    name: 'Logistics / supply chain',
    names: ['logistics', 'courier', 'freight', 'warehousing'],
    words: [
      'warehouse',
      'carrier',
      'route',
      'delivery',
      'shipment',
      'dispatch',
      'vehicle',
      'logistics',
      'parcel',
      'fleet',
    ],
  },
  {
    name: 'SaaS / subscriptions',
    names: ['saas', 'subscription', 'software'],
    words: [
      'subscription',
      'tenant',
      'seat',
      'trial',
      'churn',
      'saas',
      'subscriber',
      'license',
      'helpdesk',
      'b2b',
    ],
  },
  {
    name: 'Human resources',
    names: ['hr', 'payroll', 'recruiting', 'staffing'],
    words: [
      'payroll',
      'salary',
      'hr',
      'recruitment',
      'applicant',
      'leave',
      'absence',
      'position',
      'timesheet',
    ],
  },
  {
    name: 'Hospitality / travel',
    names: ['hotel', 'hospitality', 'travel', 'restaurant', 'airline'],
    words: ['booking', 'reservation', 'hotel', 'room', 'flight', 'guest', 'airline', 'passenger', 'travel'],
  },
  {
    name: 'Sports',
    names: ['sport', 'sports', 'league', 'club', 'athletics'],
    words: [
      'team',
      'player',
      'league',
      'match',
      'game',
      'season',
      'coach',
      'stadium',
      'batting',
      'pitching',
      'fielding',
      'goal',
      'tournament',
      'franchise',
      'athlete',
      'park',
    ],
  },
  {
    name: 'Manufacturing',
    names: ['manufacturing', 'manufacturer', 'factory'],
    words: [
      'machine',
      'assembly',
      'defect',
      'production',
      'batch',
      'material',
      'plant',
      'workorder',
      'manufacturing',
      'factory',
    ],
  },
  {
    name: 'Web analytics / product usage',
    names: ['analytics', 'website', 'clickstream'],
    words: [
      'session',
      'pageview',
      'page',
      'view',
      'click',
      'visit',
      'visitor',
      'event',
      'device',
      'campaign',
      'funnel',
      'analytics',
    ],
  },
];

/** The most the goods named in sampled values add to an industry's score. */
const MAX_VALUE_POINTS = 6;

/** Below this score no industry is clear: the analysis says "General business" rather than guess. */
const MIN_SCORE = 6;

export interface IndustryGuess {
  name: string;
  confidence: number;
  evidence: string[];
}

const words = (name: string): string[] => singularWords(name);

/** What an industry's vocabulary is matched against. */
interface SourceWords {
  snapshot: SourceSnapshot;
  /** The description's words. */
  described: Set<string>;
  factTables: Set<string>;
  /** Every word of the sampled text values. */
  valueWords: Set<string>;
}

/**
 * One industry's score and evidence: 5 a description word (`said`; `named` when it names the
 * business), a table 3 (a fact 4), its columns 1 each (at most 6), the goods the values name.
 */
function scoreIndustry(industry: Industry, seen: SourceWords) {
  const vocab = new Set(industry.words);
  const names = new Set(industry.names);
  const evidence: string[] = [];
  let score = 0;
  let said = 0;
  let named = 0;
  for (const w of seen.described) {
    if (vocab.has(w) || names.has(w)) {
      score += 5;
      said += 1;
      if (names.has(w)) named += 1;
      evidence.push(`the description says "${w}"`);
    }
  }
  for (const table of seen.snapshot.tables) {
    if (words(table.name).some((w) => vocab.has(w))) {
      score += seen.factTables.has(table.name) ? 4 : 3;
      evidence.push(`table ${table.name}`);
    }
    const hits = table.columns.filter((c) =>
      columnWords(table, c.name)
        .map(singular)
        .some((w) => vocab.has(w)),
    );
    score += Math.min(6, hits.length);
    evidence.push(...hits.slice(0, 2).map((c) => `column ${table.name}.${c.name}`));
  }
  // The goods the rows name: what the business sells, whatever its tables are called.
  const goods = new Set(industry.goods ?? []);
  const found = goods.size ? [...seen.valueWords].filter((w) => goods.has(w)) : [];
  if (found.length) {
    score += Math.min(MAX_VALUE_POINTS, found.length);
    evidence.push(`values name ${found.slice(0, 4).join(', ')}`);
  }
  return { name: industry.name, score, said, named, evidence };
}

/**
 * The industry from the user's description (the strongest evidence: a word naming the business
 * first, then 5 points a word of its vocabulary), table names
 * (3; facts 4) and column names (1, at most 6 a table). Below a clear score it says "General business".
 */
export function detectIndustry(
  snapshot: SourceSnapshot,
  description = '',
  analyses: { table: { name: string }; role: string }[] = [],
): IndustryGuess {
  const factTables = new Set(
    analyses.filter((a) => ['event', 'header', 'line'].includes(a.role)).map((a) => a.table.name),
  );
  const described = new Set(words(description));
  const valueWords = new Set(
    snapshot.tables.flatMap((t) =>
      t.sample_rows.flatMap((r) =>
        Object.values(r).flatMap((v) =>
          typeof v === 'string' && v.length <= 200 ? v.toLowerCase().split(/[^a-z]+/) : [],
        ),
      ),
    ),
  );
  const seen = { snapshot, described, factTables, valueWords };
  const scored = INDUSTRIES.map((industry) => scoreIndustry(industry, seen))
    // The user knows their business: an industry the description names outranks the schema's hints,
    // and a word naming the business outranks shared vocabulary.
    .sort((a, b) => b.named - a.named || b.said - a.said || b.score - a.score);

  const [best, second] = scored;
  // A description naming the business is enough on its own; otherwise the evidence must add up.
  if (!best || (best.named === 0 && best.score < MIN_SCORE))
    return {
      name: 'General business',
      confidence: 0.3,
      evidence: [
        best?.score
          ? `only weak hints (${best.evidence.slice(0, 3).join(', ')}: score ${best.score} < ${MIN_SCORE})`
          : 'no industry vocabulary in the description, table or column names',
      ],
    };
  // Share of the lead over the runner-up, damped for tiny schemas where a few hits decide.
  const margin = best.score / (best.score + (second?.score ?? 0));
  const support = Math.min(1, best.score / 25);
  // The user naming their business is strong evidence even when the schema's vocabulary leans elsewhere.
  const floor = best.named ? 0.7 : 0;
  const confidence = Math.round(Math.min(0.99, Math.max(floor, 0.5 * margin + 0.5 * support)) * 100) / 100;
  // The description, then table names, then columns: the order a reader checks them in.
  const order = (e: string) => (e.startsWith('the description') ? 0 : e.startsWith('table') ? 1 : 2);
  const evidence = [...best.evidence].sort((a, b) => order(a) - order(b));
  return { name: best.name, confidence, evidence: evidence.slice(0, 12) };
}
