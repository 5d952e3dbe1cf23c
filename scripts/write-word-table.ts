/**
 * Writes an embedding model's word table (domain/memory/embedding/word-table.ts): every whole word
 * of three letters or more in the model's own vocabulary (its vocab.txt), function words left out,
 * embedded as the question "What is my <word>?" by the model itself, less offensive words and the
 * words of change and time (word-table.ts: those nearest statements that set no attribute). Run by
 * scripts/provision-embedding-model.sh after the model is in place; about 20k words, some 30 s of
 * CPU for a small model.
 *   node --import tsx scripts/write-word-table.ts --models-dir DIR --model KEY [--stamp TEXT]
 * The table is written to a temporary folder and renamed into place, so a reader never sees half of
 * one; `--stamp` is kept in its `.plat-stamp`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { LocalOnnxEmbedder } from '../domain/memory/embedding/local-onnx-embedder';
import {
  ATTRIBUTE_FREE_NEAREST,
  ATTRIBUTE_FREE_STATEMENTS,
  WORD_TABLE_RELATED,
  WORD_TABLE_RELATED_FILE,
  WORD_TABLE_TEMPLATE,
  WORD_TABLE_VECTORS,
  WORD_TABLE_WORDS,
  wordTableDir,
  type WordTableHeader,
} from '../domain/memory/embedding/word-table';
import { STOP_WORDS } from '../domain/memory/search/text-terms';
import { EMBEDDING_MODELS, type EmbeddingModelKey } from '../shared/embedding-models';

/** Texts per model call: q8 weights give vectors within cosine 0.99 of one-at-a-time, several times faster. */
const BATCH = 16;

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * b[i], 0);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'models-dir': { type: 'string' }, model: { type: 'string' }, stamp: { type: 'string' } },
  });
  const modelsDir = path.resolve(values['models-dir'] ?? '');
  const model = EMBEDDING_MODELS[values.model as EmbeddingModelKey];
  if (!values['models-dir'] || !model) {
    throw new Error(
      `usage: write-word-table.ts --models-dir DIR --model ${Object.keys(EMBEDDING_MODELS).join('|')}`,
    );
  }
  const vocab = fs.readFileSync(path.join(modelsDir, model.name, 'vocab.txt'), 'utf8');
  // A memory keeps the words it evokes in its metadata, where its user reads them: none of the
  // words of the LDNOOBW list (npm naughty-words, CC-BY-4.0) are among them.
  const offensive = new Set<string>(
    JSON.parse(fs.readFileSync(require.resolve('naughty-words/en.json'), 'utf8')) as string[],
  );
  const words = [...new Set(vocab.split(/\r?\n/))].filter(
    (w) => /^[a-z]{3,}$/.test(w) && !STOP_WORDS.has(w) && !offensive.has(w),
  );
  // One thread: provisioning runs other work beside it, and a second thread saves little time.
  const embedder = new LocalOnnxEmbedder({
    modelsDir,
    model,
    batchSize: BATCH,
  });
  const dimensions = model.dimensions;
  const vectors: Float32Array[] = [];
  const step = 1024;
  for (let start = 0; start < words.length; start += step) {
    const part = words.slice(start, start + step);
    vectors.push(
      ...(await embedder.embed(
        part.map((word) => WORD_TABLE_TEMPLATE.replace('{word}', word)),
        'query',
      )),
    );
    if (start % (step * 5) === 0)
      console.error(`provision: word table of ${model.key}: ${start + part.length} of ${words.length} words`);
  }
  // The words of change and time: nearest the statements that set no attribute.
  const changeWords = new Set<number>();
  for (const v of await embedder.embed(ATTRIBUTE_FREE_STATEMENTS, 'passage')) {
    const scores = vectors.map((w, i) => [dot(w, v), i] as const).sort((a, b) => b[0] - a[0]);
    for (const [, i] of scores.slice(0, ATTRIBUTE_FREE_NEAREST)) changeWords.add(i);
  }
  const kept = words.flatMap((_, i) => (changeWords.has(i) ? [] : [i]));
  // Dimension-major: row d holds every kept word's d-th number.
  const matrix = new Float32Array(dimensions * kept.length);
  kept.forEach((wordIndex, column) => {
    for (let d = 0; d < dimensions; d++) matrix[d * kept.length + column] = vectors[wordIndex][d];
  });
  const dir = wordTableDir(modelsDir, model.name);
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const header: WordTableHeader = {
    template: WORD_TABLE_TEMPLATE,
    dimensions,
    words: kept.map((i) => words[i]),
  };
  fs.writeFileSync(path.join(tmp, WORD_TABLE_WORDS), JSON.stringify(header));
  fs.writeFileSync(path.join(tmp, WORD_TABLE_VECTORS), Buffer.from(matrix.buffer));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  // Each word's nearest words, by the table itself (the worker's scoring, many rows at a time).
  const related = new Int32Array(kept.length * WORD_TABLE_RELATED);
  const rows = 256;
  for (let start = 0; start < kept.length; start += rows) {
    const part = kept.slice(start, start + rows).map((i) => vectors[i]);
    const nearest = await embedder.nearestIndices(part, WORD_TABLE_RELATED + 1);
    nearest.forEach((indices, row) => {
      // The word itself is its own nearest: left out.
      const others = indices.filter((i) => i !== start + row).slice(0, WORD_TABLE_RELATED);
      related.set(others, (start + row) * WORD_TABLE_RELATED);
    });
  }
  fs.writeFileSync(path.join(dir, WORD_TABLE_RELATED_FILE), Buffer.from(related.buffer));
  fs.writeFileSync(path.join(dir, '.plat-stamp'), values.stamp ?? '');
  console.error(
    `provision: wrote the word table of ${model.key} (${kept.length} words, ${changeWords.size} words of change left out) to ${dir}`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`write-word-table: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
