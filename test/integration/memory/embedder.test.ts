/**
 * The memory service's embedder, on the provisioned default model (no model hub): its vectors put
 * paraphrases near and unrelated sentences far, are unit length and stable, and a batch of 100 keeps
 * each text's own vector; its word table names what a statement evokes. Prints load time,
 * throughput and latency (not asserted).
 */
import { wordsNear } from '../../../domain/memory/embedding/words-beyond-table';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultEmbedder, embeddingModelDir } from '../../../domain/memory/embedding/default-embedder';
import type { Embedder } from '../../../domain/memory/embedding/embedder';
import { LocalOnnxEmbedder } from '../../../domain/memory/embedding/local-onnx-embedder';
import {
  readWordTable,
  WORD_TABLE_VECTORS,
  WORD_TABLE_WORDS,
  wordTableDir,
} from '../../../domain/memory/embedding/word-table';
import { DEFAULT_EMBEDDING_MODEL, EMBEDDING_MODELS } from '../../../shared/embedding-models';
import { loadConfig } from '../../../shared/config';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

/** query, its paraphrase, an unrelated sentence */
const TRIPLES: [string, string, string][] = [
  [
    'How do I reset my password?',
    'I forgot my login password and need to change it.',
    'The train to Berlin leaves at noon.',
  ],
  [
    'My dog loves playing fetch in the park.',
    'The puppy enjoys chasing a ball outside.',
    'The central bank raised interest rates again.',
  ],
  [
    'The user prefers vegetarian dishes.',
    'They like to eat meals without meat.',
    'The deployment failed because the disk was full.',
  ],
];

/** 100 different sentences. */
function hundredSentences(): string[] {
  const who = ['The engineer', 'My neighbour', 'A small child', 'The old captain', 'Our manager'];
  const did = ['repaired', 'painted', 'sold', 'photographed', 'described'];
  const what = ['a red bicycle', 'the wooden fence', 'an ancient map', 'four cups of tea'];
  const out: string[] = [];
  for (const w of who) for (const d of did) for (const t of what) out.push(`${w} ${d} ${t}.`);
  return out;
}

const model = EMBEDDING_MODELS[DEFAULT_EMBEDDING_MODEL];
/** A cosine as the relevance searches rank by (the model's calibration, shared/embedding-models.ts). */
const relevance = (cosine: number) => (cosine - model.relevanceFloor) / (1 - model.relevanceFloor);
let embedder: Embedder;
let modelsDir: string;
let firstEmbedMs = 0;

beforeAll(async () => {
  const config = loadConfig({ ...process.env });
  embedder = defaultEmbedder(config);
  modelsDir = embeddingModelDir(config);
  const start = performance.now();
  // concurrent first calls: one load serves both
  const [a, b] = await Promise.all([embedder.embed(['warm up']), embedder.embed(['warm up too'])]);
  firstEmbedMs = performance.now() - start;
  expect(a).toHaveLength(1);
  expect(b).toHaveLength(1);
});

describe(`local ONNX embedder (${DEFAULT_EMBEDDING_MODEL}, q8)`, () => {
  it('places a paraphrase clearly nearer than an unrelated sentence', async () => {
    const [cat, catParaphrase, revenue] = await embedder.embed([
      'The cat sits on the mat',
      'A cat is sitting on a rug',
      'Quarterly revenue grew by 5 percent',
    ]);
    const near = relevance(dot(cat, catParaphrase));
    const far = relevance(dot(cat, revenue));
    console.log(`relevance: paraphrase ${near.toFixed(3)}, unrelated ${far.toFixed(3)}`);
    expect(near).toBeGreaterThan(0.6);
    expect(far).toBeLessThan(0.2);
    expect(near - far).toBeGreaterThan(0.4);
  });

  it("ranks each query's paraphrase first among all the other sentences", async () => {
    const queries = await embedder.embed(TRIPLES.map((t) => t[0]));
    const candidates = TRIPLES.flatMap((t) => [t[1], t[2]]);
    const vectors = await embedder.embed(candidates);
    queries.forEach((q, i) => {
      const ranked = candidates
        .map((text, j) => ({ text, score: dot(q, vectors[j]) }))
        .sort((a, b) => b.score - a.score);
      expect(ranked[0].text).toBe(TRIPLES[i][1]);
      const own = relevance(ranked.find((r) => r.text === TRIPLES[i][1])!.score);
      const unrelated = relevance(ranked.find((r) => r.text === TRIPLES[i][2])!.score);
      expect(own - unrelated).toBeGreaterThan(0.3);
    });
  });

  it('returns unit-length vectors of 384 dimensions, also for empty and very long texts', async () => {
    // far beyond the model's 512 positions: truncated (tokenizer_config's model_max_length), not rejected
    const long = 'The agent wrote down another detail about the customer. '.repeat(200);
    const vectors = await embedder.embed([
      'short',
      'A somewhat longer sentence about agents and memory.',
      '',
      long,
    ]);
    expect(vectors).toHaveLength(4);
    expect(embedder.dimensions).toBe(384);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(384);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-4);
    }
  });

  it("embeds a search's question with the model's query prefix, and a memory without it", async () => {
    const text = 'Where does Alice work?';
    const [asQuery] = await embedder.embed([text], 'query');
    const [asPassage] = await embedder.embed([text]);
    const [prefixed] = await embedder.embed([model.queryPrefix + text]);
    if (!model.passagePrefix) expect(Array.from(asQuery)).toEqual(Array.from(prefixed));
    if (model.queryPrefix === model.passagePrefix) expect(Array.from(asQuery)).toEqual(Array.from(asPassage));
    else expect(dot(asQuery, asPassage)).toBeLessThan(0.999);
  });

  it('gives the same text the same vector', async () => {
    const text = 'Alice moved to Lisbon in 2021 and works as a nurse.';
    const [first] = await embedder.embed([text]);
    const [second] = await embedder.embed([text]);
    expect(Array.from(second)).toEqual(Array.from(first));
    // Inside a batch, q8 activations are scaled per batch: the vector moves only slightly.
    const [inBatch] = await embedder.embed([
      text,
      'Something else entirely, and a good deal longer than that.',
    ]);
    const drift = dot(first, inBatch);
    console.log(`same text alone vs in a batch: cosine ${drift.toFixed(5)}`);
    expect(drift).toBeGreaterThan(0.99);
  });

  it('embeds a batch of 100 sentences, each keeping its own vector', async () => {
    const sentences = hundredSentences();
    const vectors = await embedder.embed(sentences);
    expect(vectors).toHaveLength(100);
    for (const i of [0, 17, 42, 99]) {
      const [alone] = await embedder.embed([sentences[i]]);
      const best = vectors.reduce((b, v, j) => (dot(alone, v) > dot(alone, vectors[b]) ? j : b), 0);
      expect(best).toBe(i);
      expect(dot(alone, vectors[i])).toBeGreaterThan(0.99);
    }
    expect(await embedder.embed([])).toEqual([]);
  });

  it('is identified by model, dtype and weights', () => {
    expect(embedder.id).toContain(model.name);
    expect(embedder.id).toMatch(/:q8:[0-9a-f]{12}$/);
    const fp32 = new LocalOnnxEmbedder({ modelsDir: modelsDir, dtype: 'fp32' });
    expect(fp32.id).toMatch(/:fp32:[0-9a-f]{12}$/);
    expect(fp32.id.split(':')[2]).not.toBe(embedder.id.split(':')[2]);
  });

  it('says how to provision the model when it is missing', async () => {
    const missing = new LocalOnnxEmbedder({ modelsDir: '/nonexistent/models' });
    await expect(missing.embed(['x'])).rejects.toThrow('bash scripts/provision.sh');
    expect(() => missing.id).toThrow('/nonexistent/models');
  });

  it('reports throughput and latency', async () => {
    const sentences = hundredSentences();
    const texts = Array.from({ length: 320 }, (_, i) => `${sentences[i % 100]} (${i})`);
    const rate = async (e: Embedder) => {
      const start = performance.now();
      await e.embed(texts);
      return texts.length / ((performance.now() - start) / 1000);
    };
    const batched = await rate(embedder);
    const oneByOne = await rate(new LocalOnnxEmbedder({ modelsDir: modelsDir, batchSize: 1 }));
    const latencies: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      await embedder.embed([`What did the user say about their dog, time ${i}?`]);
      latencies.push(performance.now() - start);
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `embedder ${embedder.id}: first embed (load) ${firstEmbedMs.toFixed(0)} ms; ` +
        `${batched.toFixed(0)} sentences/s at batch 32, ${oneByOne.toFixed(0)} sentences/s one at a time (1 thread); ` +
        `single-sentence latency p50 ${latencies[25].toFixed(2)} ms, p95 ${latencies[47].toFixed(2)} ms`,
    );
    expect(batched).toBeGreaterThan(0);
  });
});

describe("the model's word table (provisioned beside it)", () => {
  const local = () => embedder as LocalOnnxEmbedder;

  it('names what a statement is about among the words nearest it, though the statement never says them', async () => {
    const [haircut, renting] = await embedder.embed(['I get my hair cut at Kutz.', 'We rent from Foxtons.']);
    const [nearHaircut, nearRenting] = await local().nearestWords([haircut, renting], 10);
    expect(nearHaircut).toContain('barber');
    expect(nearRenting).toContain('landlord');
  });

  it('looks texts up in one trip as embedding them and then looking their vectors up does', async () => {
    const asked = ['What is my babysitter?', 'What is my lender?', 'What is my optician?', 'What is my car?'];
    const twoTrips = await local().nearestWords(await embedder.embed(asked, 'query'), 20);
    expect(await local().nearestWordsOf(asked, 'query', 20)).toEqual(twoTrips);
    expect(twoTrips[2]).toContain('glasses');
    // Batched four at a time, shortest first, as `embed` batches: each text keeps its vector.
    const batched = new LocalOnnxEmbedder({ modelsDir, model, batchSize: 4 });
    const batchedTwoTrips = await batched.nearestWords(await batched.embed(asked, 'query'), 20);
    expect(await batched.nearestWordsOf(asked, 'query', 20)).toEqual(batchedTwoTrips);
  });

  it('holds neither the words any change evokes nor offensive words, and knows which words are near which', () => {
    const dir = wordTableDir(modelsDir, model.name);
    const { words } = readWordTable(dir, model.dimensions)!;
    expect(words.length).toBeGreaterThan(10_000);
    expect(words).toContain('landlord');
    for (const change of ['previously', 'recently', 'changed', 'newer']) expect(words).not.toContain(change);
    const offensive = JSON.parse(
      fs.readFileSync(require.resolve('naughty-words/en.json'), 'utf8'),
    ) as string[];
    expect(words.filter((w) => offensive.includes(w))).toEqual([]);
    const related = local().relatedWords()!;
    expect(related.related('car', 'vehicle')).toBe(true);
    expect(related.related('vehicle', 'car')).toBe(true);
    expect(related.related('car', 'landlord')).toBe(false);
  });

  it('relates a word the table lacks to the table words nearest it', async () => {
    expect(local().relatedWords()!.has('babysitter')).toBe(false);
    const near = (await wordsNear(local(), ['babysitter', 'car']))!;
    expect(['baby', 'kid', 'child', 'nanny'].filter((w) => near('babysitter', w)).length).toBeGreaterThan(1);
    expect(near('kid', 'babysitter')).toBe(true);
    expect(near('babysitter', 'landlord')).toBe(false);
    expect(near('car', 'vehicle')).toBe(true);
  });

  it('looks up at most 8 words the table lacks per call, whatever a text holds', async () => {
    const real = local();
    const asked: string[] = [];
    const counting = {
      id: real.id,
      embed: (texts: string[], as?: 'query' | 'passage') => {
        asked.push(...texts);
        return real.embed(texts, as);
      },
      nearestWords: (vectors: Float32Array[], k: number) => real.nearestWords(vectors, k),
      relatedWords: () => real.relatedWords(),
    };
    const madeUp = Array.from({ length: 100 }, (_, i) =>
      `zqx${String.fromCharCode(97 + (i % 26))}${i}`.replace(/\d/g, 'q'),
    );
    const signs = ['x'.repeat(5_000), 'Babysitter', 'nanny123', '../etc'];
    await wordsNear(counting, [...madeUp, ...signs]);
    expect(asked.length).toBeLessThanOrEqual(8);
    expect(asked.every((t) => /^What is my [a-z]{3,30}\?$/.test(t))).toBe(true);
  });

  it('relates the same words alike whatever the process looked up before', async () => {
    // Eight words the table lacks come first: "babysitter" is the ninth, past the words considered.
    const first = ['zqxa', 'zqxb', 'zqxc', 'zqxd', 'zqxe', 'zqxf', 'zqxg', 'zqxh', 'babysitter'];
    const related = (near: (a: string, b: string) => boolean) =>
      ['baby', 'kid', 'child', 'nanny'].filter((w) => near('babysitter', w));
    const before = related((await wordsNear(local(), first))!);
    // Looked up alone, "babysitter" is near its words, and kept in the process's cache...
    expect(related((await wordsNear(local(), ['babysitter']))!).length).toBeGreaterThan(1);
    // ...which changes nothing for the same words asked again.
    expect(related((await wordsNear(local(), first))!)).toEqual(before);
    expect(before).toEqual([]);
  });

  it('evokes nothing where the model has no table, and ignores a table that does not fit', async () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-models-'));
    try {
      const noTable = new LocalOnnxEmbedder({ modelsDir: bare });
      const [vector] = await embedder.embed(['We rent from Foxtons.']);
      expect(await noTable.nearestWords([vector], 10)).toEqual([[]]);
      expect(noTable.relatedWords()).toBeUndefined();
      // A vectors file of another size than its words say: a table half written, or another model's.
      const table = wordTableDir(bare, `${model.name}-cut`);
      fs.mkdirSync(table, { recursive: true });
      fs.writeFileSync(
        path.join(table, WORD_TABLE_WORDS),
        JSON.stringify({ template: '', dimensions: model.dimensions, words: ['landlord', 'barber'] }),
      );
      fs.writeFileSync(path.join(table, WORD_TABLE_VECTORS), Buffer.alloc(model.dimensions * 4));
      expect(readWordTable(table, model.dimensions)).toBeUndefined();
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});
