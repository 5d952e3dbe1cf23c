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
 */
export const EMBEDDING_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
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

let tail = Promise.resolve();
parentPort.on('message', ({ id, texts }) => {
  tail = tail.then(async () => {
    let pipe;
    try {
      extractor ??= load();
      pipe = await extractor;
    } catch (e) {
      parentPort.postMessage({ id, error: 'loading ' + model + ' failed: ' + (e && e.message ? e.message : e), fatal: true });
      return;
    }
    try {
      const tensor = await pipe(texts, { pooling, normalize: true });
      const data = Float32Array.from(tensor.data);
      const dims = tensor.dims.slice();
      tensor.dispose();
      parentPort.postMessage({ id, data, dims }, [data.buffer]);
    } catch (e) {
      parentPort.postMessage({ id, error: String(e && e.message ? e.message : e), fatal: false });
    }
  });
});
`;
