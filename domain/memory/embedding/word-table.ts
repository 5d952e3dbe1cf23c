/**
 * The model's word table (docs/memory-supersede.md#by-the-words-a-statement-evokes): every whole
 * English word of the model's own vocabulary, embedded as the question "What is my <word>?", so the
 * words nearest a statement's vector name what it is about even when the statement never says them
 * ("Dr Lee sees the cat now" evokes "vet"), but for the words of change and time any statement
 * of a change evokes (see {@link ATTRIBUTE_FREE_STATEMENTS}). Written next to the model by provisioning
 * (scripts/write-word-table.ts); read by the embedding worker (the vectors) and here (the words).
 *
 * Layout, in `<models dir>/<model name>/plat-word-table/`:
 *   words.json   `{ template, dimensions, words }`
 *   vectors.f32  little-endian float32, dimension-major (`dimensions` rows of `words.length`), so one
 *                matrix product scores every word against a vector
 *   related.i32  little-endian int32: for each word, the places of its {@link WORD_TABLE_RELATED}
 *                nearest other words ("car": "vehicle", "automobile" …), nearest first
 *   .plat-stamp  what it was made from (provisioning rewrites the table when that changes)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The table's folder inside a model's directory. */
export const WORD_TABLE_DIR = 'plat-word-table';
export const WORD_TABLE_WORDS = 'words.json';
export const WORD_TABLE_VECTORS = 'vectors.f32';
export const WORD_TABLE_RELATED_FILE = 'related.i32';

/** Related words kept per word. */
export const WORD_TABLE_RELATED = 20;

/** How each word is put to the model (a query): what one would ask of the attribute it names. */
export const WORD_TABLE_TEMPLATE = 'What is my {word}?';

/**
 * Statements of change and time that set no attribute. The words nearest them ("newer", "previously",
 * "switched", "lately", "week") are what any statement of a change evokes, whatever it changes, so
 * the table leaves them out; which they are is the model's own reading, not a list.
 */
export const ATTRIBUTE_FREE_STATEMENTS = [
  'It changed.',
  'It is new now.',
  'Since last week it is different.',
  'I switched to another one recently.',
  'These days I have a different one.',
  'Previously I had another one.',
  'It used to be something else.',
  'From now on it is this one.',
];

/** How many of the words nearest each attribute-free statement the table leaves out. */
export const ATTRIBUTE_FREE_NEAREST = 40;

/** The contents of `words.json`. */
export interface WordTableHeader {
  template: string;
  dimensions: number;
  words: string[];
}

/**
 * Which words are near which in the table: `related(a, b)` when either is among the other's
 * {@link WORD_TABLE_RELATED} nearest, or they are the same word.
 */
export interface RelatedWords {
  related(a: string, b: string): boolean;
  /** Whether the table holds `word`. */
  has(word: string): boolean;
}

const relatedTables = new Map<string, RelatedWords | null>();

/** The table's related words, read once per process, or undefined when it has none. */
export function readRelatedWords(dir: string, dimensions: number): RelatedWords | undefined {
  let read = relatedTables.get(dir);
  if (read === undefined) {
    read = null;
    const header = readWordTable(dir, dimensions);
    try {
      const bytes = header && fs.readFileSync(path.join(dir, WORD_TABLE_RELATED_FILE));
      if (header && bytes && bytes.length === header.words.length * WORD_TABLE_RELATED * 4) {
        const places = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
        const index = new Map(header.words.map((w, i) => [w, i]));
        const near = (a: number, b: number) =>
          places.subarray(a * WORD_TABLE_RELATED, (a + 1) * WORD_TABLE_RELATED).includes(b);
        read = {
          related(a: string, b: string): boolean {
            if (a === b) return true;
            const [i, j] = [index.get(a), index.get(b)];
            return i !== undefined && j !== undefined && (near(i, j) || near(j, i));
          },
          has: (word: string) => index.has(word),
        };
      }
    } catch {
      // absent: words are related only to themselves
    }
    relatedTables.set(dir, read);
  }
  return read ?? undefined;
}

/** The folder of a model's word table. */
export const wordTableDir = (modelsDir: string, modelName: string): string =>
  path.join(modelsDir, modelName, WORD_TABLE_DIR);

const headers = new Map<string, WordTableHeader | null>();

/**
 * The table's words and shape, read once per process, or undefined when the table is absent or does
 * not fit the model (`dimensions`) or its vectors file (its size).
 */
export function readWordTable(dir: string, dimensions: number): WordTableHeader | undefined {
  let header = headers.get(dir);
  if (header === undefined) {
    header = null;
    try {
      const read = JSON.parse(fs.readFileSync(path.join(dir, WORD_TABLE_WORDS), 'utf8')) as WordTableHeader;
      const size = fs.statSync(path.join(dir, WORD_TABLE_VECTORS)).size;
      if (
        read.dimensions === dimensions &&
        Array.isArray(read.words) &&
        read.words.length > 0 &&
        size === read.words.length * dimensions * 4
      )
        header = read;
    } catch {
      // absent or unreadable: the service runs without the table
    }
    headers.set(dir, header);
  }
  return header ?? undefined;
}
