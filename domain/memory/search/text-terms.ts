/**
 * The terms of the lexical index (docs/memory-search.md#lexical): lower-cased runs of letters and
 * digits, English stop words dropped, a light suffix stemmer so "hiking", "hikes" and "hiked"
 * meet "hike", and codes written with separators ("XR-7734") also indexed joined ("xr7734").
 * Entity terms are the ones a question names as a thing: capitalized words, codes with digits,
 * quoted phrases. Pure, for exact unit tests; both stores index the same terms.
 */

/** Function words that carry no topic: dropped from documents and questions alike. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves also got get gets ever s t d ll m re ve don didn doesn isn ' +
    'wasn weren haven hasn hadn won wouldn shouldn couldn can cannot let lets like really yeah oh hey'
  ).split(' '),
);

const VOWEL = /[aeiouy]/;

/** A light English stemmer: plural and -ing/-ed endings, doubled consonants, a final e. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') || w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|us|is)$/.test(w)) {
    /* glass, bus, analysis: not plurals */
  } else if (/(?:ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s')) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    const base = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && base.length >= 3 && VOWEL.test(base)) {
      w = /([^aeiouylsz])\1$/.test(base) ? base.slice(0, -1) : base;
      break;
    }
  }
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Lower-cased word tokens (letters and digits), diacritics kept. */
function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Codes written with separators ("XR-7734", "v2.1.0", "order_55"), joined, when they hold a digit. */
function joinedCodes(text: string): string[] {
  // Every run of words and separators is matched, then those with a separator kept: a pattern that
  // requires one backtracks through each long run of letters from every start (square time).
  const runs = text.normalize('NFKC').match(/[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*/gu) ?? [];
  return runs
    .filter((c) => /[-_./]/.test(c) && /\d/.test(c))
    .map((c) => c.toLowerCase().replace(/[-_./]/g, ''));
}

const keep = (w: string) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w));

/** The terms a memory is indexed under, with repeats (term frequency counts). */
export function indexTerms(text: string): string[] {
  return [...words(text).filter(keep).map(stem), ...joinedCodes(text)];
}

/** The distinct terms a question searches for. */
export function queryTerms(question: string): string[] {
  return [...new Set(indexTerms(question))];
}

/** Each term of a question → the question's word it came from ("stag" → "staging"), for display. */
export function termWords(question: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const m of question.normalize('NFKC').matchAll(/[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*/gu))
    for (const t of indexTerms(m[0])) if (!words.has(t)) words.set(t, m[0].toLowerCase());
  return words;
}

/**
 * The terms of the things a question names: capitalized words (not a stop word, so a question's
 * first "What" is not one), words with a digit, and the words of quoted phrases. Distinct, stemmed
 * like `indexTerms`, so they match the index.
 */
export function entityTerms(question: string): string[] {
  const found = new Set<string>();
  const text = question.normalize('NFKC');
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:[-_./'’][\p{L}\p{N}]+)*/gu)) {
    const token = m[0];
    const named = /^\p{Lu}/u.test(token) || /\d/.test(token);
    if (!named) continue;
    for (const t of indexTerms(token)) found.add(t);
  }
  for (const m of text.matchAll(/["“”«»]([^"“”«»]{1,200})["“”«»]/gu))
    for (const t of indexTerms(m[1])) found.add(t);
  return [...found];
}
