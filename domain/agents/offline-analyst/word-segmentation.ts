/**
 * Splits a run of joined English words (`unitprice`, `orderdate`, `extendedprice`) by the most
 * probable segmentation under Zipf's law over a frequency-ranked English word list (the list of
 * the `wordsninja` package, from English Wikipedia unigrams): a word of rank r costs log(r · log N),
 * and the cheapest split wins. A token that is itself a common word, or that cannot be split into
 * readable words, is kept whole.
 */

/** Tokens this short are abbreviations or words already: never split. */
const MIN_SPLIT_LENGTH = 5;
/** A token ranked above this is read as one word (`address`, `payment`, `username`). */
const COMMON_RANK = 50_000;
/** How much likelier (in log cost) a rare dictionary word must be than its split to stay whole. */
const RARE_WORD_MARGIN = 3;
/** Short pieces a split may produce; any other piece under three letters makes the split unreadable. */
const SHORT_WORDS = new Set(['id', 'no', 'at', 'on', 'by', 'of', 'to', 'in', 'is', 'ts', 'dt', 'up', 'vs']);
/** Abbreviations names use that the word list ranks low or lacks, costed like common words. */
const NAME_PIECES = [
  'qty',
  'amt',
  'nbr',
  'num',
  'cust',
  'acct',
  'bal',
  'mkt',
  'supp',
  'addr',
  'desc',
  'txn',
  'emp',
  'dept',
  'cnt',
  'pct',
  'avail',
  'alloc',
  'sku',
  'msrp',
  'uuid',
  'utc',
];

let costs: Map<string, number> | undefined;
let longest = 0;

function wordCosts(): Map<string, number> {
  if (costs) return costs;
  // Loaded on first use: 126k words, about 2 MB.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ranked = require('wordsninja/words-en.json') as string[];
  const logN = Math.log(ranked.length);
  costs = new Map();
  ranked.forEach((word, i) => {
    if (!costs!.has(word)) costs!.set(word, Math.log((i + 1) * logN));
  });
  for (const piece of NAME_PIECES) costs.set(piece, Math.log(1000 * logN));
  for (const w of costs.keys()) longest = Math.max(longest, w.length);
  return costs;
}

/** Whether a lower-case word is among the list's common words (`unit`, `ship`, `sum`). */
export function isCommonWord(word: string): boolean {
  const table = wordCosts();
  const cost = table.get(word);
  return cost !== undefined && cost <= Math.log(COMMON_RANK * Math.log(table.size));
}

const segmented = new Map<string, string[]>();

/** The words of one lower-case token: `unitprice` → `['unit', 'price']`, `payment` → `['payment']`. */
export function segmentWord(token: string): string[] {
  if (token.length < MIN_SPLIT_LENGTH || /\d/.test(token)) return [token];
  const cached = segmented.get(token);
  if (cached) return cached;
  const result = split(token);
  // Bounded: a source may have any number of names, the worker holds this for its life.
  if (segmented.size >= 20_000) segmented.clear();
  segmented.set(token, result);
  return result;
}

function split(token: string): string[] {
  const table = wordCosts();
  const own = table.get(token);
  if (own !== undefined && own <= Math.log(COMMON_RANK * Math.log(table.size))) return [token];
  // A rarer dictionary word (`invoice`, `lastname`) splits only into pieces of three letters or
  // more, and only when the pieces together are nearly as likely as the word.
  const minPiece = own === undefined ? 1 : 3;
  // best[i]: the cheapest segmentation of token[0, i) into two or more pieces, and where its last piece starts.
  const best: { cost: number; from: number }[] = [{ cost: 0, from: 0 }];
  for (let i = 1; i <= token.length; i++) {
    let choice = { cost: Infinity, from: -1 };
    for (let j = Math.max(0, i - longest); j < i; j++) {
      if (j === 0 && i === token.length) continue;
      const piece = token.slice(j, i);
      const cost = table.get(piece);
      if (cost === undefined || best[j].cost === Infinity) continue;
      if (piece.length < Math.max(minPiece, 3) && (minPiece === 3 || !SHORT_WORDS.has(piece))) continue;
      if (best[j].cost + cost < choice.cost) choice = { cost: best[j].cost + cost, from: j };
    }
    best.push(choice);
  }
  const splitCost = best[token.length].cost;
  if (splitCost === Infinity || (own !== undefined && splitCost >= own + RARE_WORD_MARGIN)) return [token];
  const words: string[] = [];
  for (let i = token.length; i > 0; i = best[i].from) words.unshift(token.slice(best[i].from, i));
  return words;
}
