/**
 * Detects the business domain from table and column names (and the user's description): each
 * industry has a lexicon; table names weigh more than column names.
 */
import type { SourceSnapshot } from '../../../shared/source-schema';

interface Industry {
  name: string;
  /** Words whose presence in a table name (3 points), column name (1) or description (2) counts. */
  words: string[];
}

export const INDUSTRIES: Industry[] = [
  {
    name: 'DVD rental / retail',
    words: [
      'film',
      'movie',
      'rental',
      'inventory',
      'actor',
      'rating',
      'store',
      'return',
      'dvd',
      'video',
      'category',
      'language',
    ],
  },
  {
    name: 'E-commerce / retail',
    words: [
      'order',
      'product',
      'cart',
      'sku',
      'shipment',
      'shipping',
      'checkout',
      'coupon',
      'review',
      'seller',
      'catalog',
    ],
  },
  {
    name: 'Banking / finance',
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
    ],
  },
  {
    name: 'Healthcare',
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
    ],
  },
  {
    name: 'Education',
    words: ['student', 'course', 'enrollment', 'grade', 'teacher', 'class', 'semester', 'exam', 'lesson'],
  },
  {
    name: 'Logistics / supply chain',
    words: [
      'warehouse',
      'carrier',
      'route',
      'delivery',
      'freight',
      'supplier',
      'stock',
      'dispatch',
      'vehicle',
    ],
  },
  {
    name: 'SaaS / subscriptions',
    words: ['subscription', 'plan', 'tenant', 'invoice', 'usage', 'seat', 'trial', 'churn', 'feature'],
  },
  {
    name: 'Human resources',
    words: ['employee', 'department', 'salary', 'title', 'payroll', 'manager', 'hire', 'leave', 'position'],
  },
  {
    name: 'Hospitality / travel',
    words: ['booking', 'reservation', 'hotel', 'room', 'flight', 'guest', 'airline', 'passenger', 'ticket'],
  },
  {
    name: 'Manufacturing',
    words: ['machine', 'part', 'assembly', 'defect', 'production', 'batch', 'material', 'plant', 'workorder'],
  },
];

export interface IndustryGuess {
  name: string;
  confidence: number;
  evidence: string[];
}

/** Splits `film_category` / `rentalDate` into words, singular. */
function words(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

export function detectIndustry(snapshot: SourceSnapshot, description = ''): IndustryGuess {
  const scored = INDUSTRIES.map((industry) => {
    const vocab = new Set(industry.words);
    const evidence = new Set<string>();
    let score = 0;
    for (const table of snapshot.tables) {
      if (words(table.name).some((w) => vocab.has(w))) {
        score += 3;
        evidence.add(`table ${table.name}`);
      }
      for (const column of table.columns) {
        if (words(column.name).some((w) => vocab.has(w))) {
          score += 1;
          evidence.add(`column ${table.name}.${column.name}`);
        }
      }
    }
    for (const w of words(description)) {
      if (vocab.has(w)) {
        score += 2;
        evidence.add(`description mentions "${w}"`);
      }
    }
    return { name: industry.name, score, evidence: [...evidence] };
  }).sort((a, b) => b.score - a.score);

  const [best, second] = scored;
  if (!best || best.score === 0)
    return {
      name: 'General business',
      confidence: 0.2,
      evidence: ['no industry vocabulary found in table or column names'],
    };
  // Share of the lead over the runner-up, damped for tiny schemas where a few hits decide.
  const margin = best.score / (best.score + (second?.score ?? 0));
  const support = Math.min(1, best.score / 20);
  const confidence = Math.round(Math.min(0.99, 0.5 * margin + 0.5 * support) * 100) / 100;
  // Table names first: they are the strongest evidence and the first a reader checks.
  const evidence = [
    ...best.evidence.filter((e) => !e.startsWith('column')),
    ...best.evidence.filter((e) => e.startsWith('column')),
  ];
  return { name: best.name, confidence, evidence: evidence.slice(0, 12) };
}
