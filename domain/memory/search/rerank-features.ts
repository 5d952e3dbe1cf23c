/**
 * What the reranker reads of a hybrid candidate (docs/memory-search.md#reranking): fusion's
 * signals, and what the memory's own terms say about the question: how many of its terms and
 * named things the memory holds, how close together, whether the memory is about (starts with) a
 * name the question asks about, whether it lies in the question's time range, and the share of
 * relevance a neighbouring turn passed on. Pure, for exact unit tests; every value in [0, 1].
 */
import { indexTerms } from './text-terms';

export interface RerankFeatures {
  /** The fused relevance (search/rank-fusion.ts). */
  fused: number;
  /** Cosine similarity, or the semantic list's floor when the list did not hold the memory. */
  semantic: number;
  /** Normalized BM25 relevance, or the lexical list's floor. */
  lexical: number;
  /** Share of the question's terms the memory holds. */
  coverage: number;
  /** Share of the question's named things the memory holds (0 when it names none). */
  entity: number;
  /** How close the matched terms sit: (k − 1) / (shortest window holding all k − 1), 0 below two. */
  proximity: number;
  /** 1 when the memory's first term is a thing the question names (a speaker, a subject). */
  named: number;
  /** 1 when the memory lies in the question's time range. */
  time: number;
  /** The share of a neighbouring strong candidate's relevance (search/neighbour-turns.ts). */
  neighbour: number;
  /** Share of the memory's sentences that are not questions: a question rarely holds an answer. */
  statement: number;
  /** How much the memory says: its distinct terms over 16, at most 1 ("Thanks!" says little). */
  detail: number;
  /**
   * 1 when the question asks about a person's attribute and the memory holds another cue word of
   * it ("where do I live?", "I moved to Lisbon"; search/attribute-cues.ts).
   */
  attribute: number;
}

export const RERANK_FEATURES = [
  'fused',
  'semantic',
  'lexical',
  'coverage',
  'entity',
  'proximity',
  'named',
  'time',
  'neighbour',
  'statement',
  'detail',
  'attribute',
] as const satisfies readonly (keyof RerankFeatures)[];

/** A feature of `RerankFeatures` that `RERANK_FEATURES` lacks (none: the check below compiles). */
type Unlisted = Exclude<keyof RerankFeatures, (typeof RERANK_FEATURES)[number]>;
/** Compiles only while every feature is listed: a signal added to the interface alone names itself here. */
export const EVERY_FEATURE_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

/** What the question brings, analysed once per search. */
export interface RerankQuery {
  terms: string[];
  entities: string[];
  /** Cue terms of the attributes the question asks about (search/attribute-cues.ts); none by default. */
  cues?: string[];
}

/** One candidate's signals at fusion time. */
export interface RerankInput {
  text: string;
  fused: number;
  semantic: number;
  lexical: number;
  inRange: boolean;
  neighbour: number;
}

/** Terms of a memory read for its features: at most this many (a huge memory costs no more). */
const MAX_TERMS = 512;

export function rerankFeatures(c: RerankInput, q: RerankQuery): RerankFeatures {
  const head = c.text.length > 8 * MAX_TERMS ? c.text.slice(0, 8 * MAX_TERMS) : c.text;
  const terms = indexTerms(head).slice(0, MAX_TERMS);
  const held = new Set(terms);
  const queryTerms = new Set(q.terms);
  const entities = new Set(q.entities);
  const share = (wanted: Set<string>) => {
    if (!wanted.size) return 0;
    let n = 0;
    for (const t of wanted) if (held.has(t)) n++;
    return n / wanted.size;
  };
  return {
    fused: unit(c.fused),
    semantic: unit(c.semantic),
    lexical: unit(c.lexical),
    coverage: share(queryTerms),
    entity: share(entities),
    proximity: proximity(terms, queryTerms),
    named: terms.length && entities.has(terms[0]) ? 1 : 0,
    time: c.inRange ? 1 : 0,
    neighbour: unit(c.neighbour),
    statement: statementShare(head),
    detail: Math.min(1, held.size / DETAIL_TERMS),
    attribute: q.cues?.some((t) => held.has(t)) ? 1 : 0,
  };
}

/**
 * (k − 1) / (w − 1) for the shortest window of w terms holding all k distinct query terms the
 * memory holds: 1 when they are adjacent, 0 when fewer than two match.
 */
export function proximity(terms: string[], wanted: Set<string>): number {
  const distinct = new Set(terms.filter((t) => wanted.has(t)));
  const k = distinct.size;
  if (k < 2) return 0;
  const counts = new Map<string, number>();
  let have = 0;
  let best = Infinity;
  let lo = 0;
  for (let hi = 0; hi < terms.length; hi++) {
    const t = terms[hi];
    if (!distinct.has(t)) continue;
    const n = (counts.get(t) ?? 0) + 1;
    counts.set(t, n);
    if (n === 1) have++;
    while (have === k) {
      const l = terms[lo];
      if (distinct.has(l)) {
        best = Math.min(best, hi - lo + 1);
        const m = counts.get(l)! - 1;
        counts.set(l, m);
        if (m === 0) have--;
      }
      lo++;
    }
  }
  return Number.isFinite(best) ? (k - 1) / (best - 1) : 0;
}

/** A letter or digit of any script; ASCII answered without the regular expression. */
function isWordChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return /[\p{L}\p{N}]/u.test(ch);
}

/** Distinct terms at which a memory counts as saying something in full. */
const DETAIL_TERMS = 16;

/**
 * Share of the sentences of `text` that do not end with a question mark (1 when it has none): a
 * sentence is a run of text holding a word character, ended by `.`, `!`, `?`, a line break or the
 * end. One pass, linear in the text.
 */
export function statementShare(text: string): number {
  let sentences = 0;
  let questions = 0;
  let wordy = false;
  for (const ch of text) {
    if (ch === '.' || ch === '!' || ch === '?' || ch === '\n') {
      if (wordy) {
        sentences++;
        if (ch === '?') questions++;
      }
      wordy = false;
    } else if (!wordy && isWordChar(ch)) wordy = true;
  }
  if (wordy) sentences++;
  return sentences ? 1 - questions / sentences : 1;
}

const unit = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
