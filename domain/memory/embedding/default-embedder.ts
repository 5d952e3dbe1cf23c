/**
 * The memory service's embedder as configured: the local ONNX model PLAT_EMBEDDING_MODEL names, from
 * PLAT_EMBEDDING_MODEL_DIR.
 */
import * as path from 'node:path';
import type { PlatConfig } from '../../../shared/config';
import { DEFAULT_EMBEDDING_MODEL, EMBEDDING_MODELS } from '../../../shared/embedding-models';
import { repoRoot } from '../../../shared/paths';
import type { Embedder } from './embedder';
import { LocalOnnxEmbedder } from './local-onnx-embedder';

type EmbeddingSettings = Pick<PlatConfig, 'PLAT_EMBEDDING_MODEL_DIR' | 'PLAT_TOOLS_DIR'> &
  Partial<Pick<PlatConfig, 'PLAT_EMBEDDING_MODEL'>>;

/** The models directory: PLAT_EMBEDDING_MODEL_DIR, else `<PLAT_TOOLS_DIR>/models`, against the repo root. */
export function embeddingModelDir(config: EmbeddingSettings): string {
  return config.PLAT_EMBEDDING_MODEL_DIR
    ? path.resolve(repoRoot, config.PLAT_EMBEDDING_MODEL_DIR)
    : path.resolve(repoRoot, config.PLAT_TOOLS_DIR, 'models');
}

const embedders = new Map<string, Embedder>();

/** One embedder per models directory, model and process; the model loads on the first `embed`. */
export function defaultEmbedder(config: EmbeddingSettings): Embedder {
  const modelsDir = embeddingModelDir(config);
  const model = EMBEDDING_MODELS[config.PLAT_EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL];
  const key = `${modelsDir}\0${model.key}`;
  let embedder = embedders.get(key);
  if (!embedder) {
    // One text per inference: q8 scales activations per batch, and a memory's vector must not
    // depend on what it was embedded with (one thread runs batches no faster).
    embedder = new LocalOnnxEmbedder({ modelsDir, model, batchSize: 1 });
    embedders.set(key, embedder);
  }
  return embedder;
}
