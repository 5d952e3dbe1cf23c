/**
 * Source of the worker thread that runs the embedding model (started with `eval: true`, so it works
 * the same from TypeScript sources, tsx, jest and the built `dist/`).
 *
 * Why a worker: onnxruntime-node runs a session synchronously on the calling thread, so in-process
 * inference would stall the memory service's event loop for the whole batch; and transformers.js keeps
 * its settings in one process-wide `env`, which a worker has to itself.
 *
 * workerData: `{ requireFrom, modelsDir, model, pooling, dtype, threads }`. Messages in: `{ id, texts }`;
 * out: `{ id, data: Float32Array, dims }` (pooled as `pooling` says: mean or cls; normalized, `dims` = [texts, dimensions]) or
 * `{ id, error, fatal }` (`fatal`: the model could not be loaded; the worker should be replaced).
 * Also in: `{ id, nearest: { graph, table, words, vectors, k } }` (nearest-words-graph.ts's bytes;
 * word-table.ts: the table's vectors file, its word count; the query vectors one after the other);
 * out: `{ id, data: Int32Array, dims }`, the indices of each vector's `k` nearest words, nearest
 * first (`dims` = [vectors, k]). And `{ id, texts, batch, nearest: { graph, table, words, k } }`: the
 * texts embedded `batch` at a time, as alone, then their nearest words, answered as `nearest` is (one
 * trip: the search's main thread need not be free between the two for the lookup to go on).
 */
export const EMBEDDING_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { readFileSync } = require('node:fs');
const { requireFrom, modelsDir, model, pooling, dtype, threads } = workerData;

let extractor;
async function load() {
  const { env, pipeline } = createRequire(requireFrom)('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = modelsDir;
  return pipeline('feature-extraction', model, {
    dtype,
    session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
  });
}

// The word table's vectors as one [dimensions, words] tensor, read once; the scoring graph's session;
// the onnxruntime transformers.js runs on (one binding per thread), resolved once.
const tables = new Map();
let scoring;
let ort;
async function nearestWords({ graph, table, words, vectors, k }) {
  ort ??= createRequire(createRequire(requireFrom).resolve('@huggingface/transformers'))('onnxruntime-node');
  scoring ??= ort.InferenceSession.create(graph, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  const session = await scoring;
  let matrix = tables.get(table);
  if (!matrix) {
    const bytes = readFileSync(table);
    const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    matrix = new ort.Tensor('float32', data, [data.length / words, words]);
    tables.set(table, matrix);
  }
  const dimensions = matrix.dims[0];
  const rows = vectors.length / dimensions;
  const { indices } = await session.run({
    q: new ort.Tensor('float32', vectors, [rows, dimensions]),
    m: matrix,
    k: new ort.Tensor('int64', BigInt64Array.from([BigInt(k)]), [1]),
  });
  return { data: Int32Array.from(indices.data, Number), dims: [rows, indices.dims[1]] };
}

// The texts' vectors one after the other, \`batch\` texts a model call.
async function embedAll(pipe, texts, batch) {
  const parts = [];
  for (let start = 0; start < texts.length; start += batch) {
    const tensor = await pipe(texts.slice(start, start + batch), { pooling, normalize: true });
    parts.push({ data: Float32Array.from(tensor.data), dims: tensor.dims.slice() });
    tensor.dispose();
  }
  if (parts.length === 1) return parts[0];
  const dimensions = parts[0].dims[1];
  const data = new Float32Array(texts.length * dimensions);
  parts.forEach((part, i) => data.set(part.data, i * batch * dimensions));
  return { data, dims: [texts.length, dimensions] };
}

const failure = (id, e) => ({ id, error: String(e && e.message ? e.message : e), fatal: false });

let tail = Promise.resolve();
parentPort.on('message', ({ id, texts, batch, nearest }) => {
  tail = tail.then(async () => {
    if (nearest && !texts) {
      try {
        const { data, dims } = await nearestWords(nearest);
        parentPort.postMessage({ id, data, dims }, [data.buffer]);
      } catch (e) {
        parentPort.postMessage(failure(id, e));
      }
      return;
    }
    let pipe;
    try {
      extractor ??= load();
      pipe = await extractor;
    } catch (e) {
      parentPort.postMessage({ id, error: 'loading ' + model + ' failed: ' + (e && e.message ? e.message : e), fatal: true });
      return;
    }
    try {
      const embedded = await embedAll(pipe, texts, batch ?? texts.length);
      const { data, dims } = nearest ? await nearestWords({ ...nearest, vectors: embedded.data }) : embedded;
      parentPort.postMessage({ id, data, dims }, [data.buffer]);
    } catch (e) {
      parentPort.postMessage(failure(id, e));
    }
  });
});
`;
