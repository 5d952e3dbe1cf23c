/**
 * A statement's likeness vector on the provisioned default model (docs/memory-supersede.md#by-likeness):
 * its question vector less the everyday background finds the earlier statement of the same attribute
 * among statements of others, and two statements alike by their frame are read again on the words
 * they do not share; an instance says which of the model's evidence it reads.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultEmbedder, embeddingModelDir } from '../../../domain/memory/embedding/default-embedder';
import { LocalOnnxEmbedder } from '../../../domain/memory/embedding/local-onnx-embedder';
import { WORD_TABLE_DIR } from '../../../domain/memory/embedding/word-table';
import { supersedeEvidenceOf } from '../../../domain/memory/memory-superseding';
import { DEFAULT_EMBEDDING_MODEL, EMBEDDING_MODELS } from '../../../shared/embedding-models';
import type { Embedder } from '../../../domain/memory/embedding/embedder';
import {
  likenessApart,
  likenessVector,
  shareTheirFrame,
} from '../../../domain/memory/supersede/alike-statements';
import { namedValues } from '../../../domain/memory/supersede/statement-names';
import { loadConfig } from '../../../shared/config';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);

const MEMORIES = [
  'Lena at Studio Five does my haircuts.',
  'I take the 8:15 train to work.',
  'We bought a new sofa from Ikea.',
  'The dog sees Dr Ortiz at Riverside Animal Hospital.',
  'My dentist is Dr Patel.',
];

let embedder: Embedder;
let stored: Float32Array[];

beforeAll(async () => {
  embedder = defaultEmbedder(loadConfig(process.env));
  stored = await embedder.embed(MEMORIES);
});

describe('a statement’s likeness vector', () => {
  it('is nearest the earlier statement of the same attribute, alone over the model’s threshold', async () => {
    const likeness = (await likenessVector(embedder, 'Paws Clinic looks after our dog now.'))!;
    const scores = stored.map((m) => dot(likeness, m));
    expect(scores.indexOf(Math.max(...scores))).toBe(3);
    expect(scores[3]).toBeGreaterThanOrEqual(embedder.alikeStatements!);
    expect(scores.filter((_, i) => i !== 3).every((s) => s < embedder.alikeStatements!)).toBe(true);
  });

  it('is not made for a model without a likeness threshold', async () => {
    const withoutThreshold: Embedder = {
      ...embedder,
      embed: embedder.embed.bind(embedder),
      alikeStatements: undefined,
    };
    expect(await likenessVector(withoutThreshold, 'Paws Clinic looks after our dog now.')).toBeUndefined();
  });
});

describe('two statements alike by their frame', () => {
  const insurer = 'Our insurer changed to AXA in spring.';
  const provider = 'Our mobile provider changed to Three in spring.';
  const values = [...namedValues(insurer), ...namedValues(provider)];

  it('share most of their words, names aside; statements of one attribute said apart do not', () => {
    expect(shareTheirFrame(provider, insurer, values)).toBe(true);
    expect(
      shareTheirFrame('Paws Clinic looks after our dog now.', MEMORIES[3], [
        'paws clinic',
        'dr ortiz',
        'riverside animal hospital',
      ]),
    ).toBe(false);
  });

  it('are alike over the threshold as said, and not on the words they do not share', async () => {
    const [likeness, [older]] = await Promise.all([
      likenessVector(embedder, provider),
      embedder.embed([insurer]),
    ]);
    expect(dot(likeness!, older)).toBeGreaterThanOrEqual(embedder.alikeStatements!);
    expect(await likenessApart(embedder, provider, insurer)).toBeLessThan(embedder.alikeStatements!);
  });
});

describe('the evidence an instance reads', () => {
  it('names the word table missing, so two instances of a fleet that would decide apart show it', () => {
    expect(supersedeEvidenceOf(embedder)).toEqual({ evoked_words: true, likeness: true });
    // The same model without its word table: a copy of its files less the table.
    const model = EMBEDDING_MODELS[DEFAULT_EMBEDDING_MODEL];
    const source = path.join(embeddingModelDir(loadConfig(process.env)), model.name);
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-no-word-table-'));
    try {
      fs.cpSync(source, path.join(modelsDir, model.name), {
        recursive: true,
        filter: (from) => path.basename(from) !== WORD_TABLE_DIR,
      });
      const withoutTable = new LocalOnnxEmbedder({ modelsDir, model });
      expect(supersedeEvidenceOf(withoutTable)).toEqual({ evoked_words: false, likeness: true });
    } finally {
      fs.rmSync(modelsDir, { recursive: true, force: true });
    }
  });
});
