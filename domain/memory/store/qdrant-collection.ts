/**
 * Makes sure the memory collection exists with the expected vector shape and payload indexes, so
 * a store can be opened against an empty Qdrant, an existing deployment, or one another opener is
 * creating at the same moment.
 */
import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { TEXT_VECTOR } from './qdrant-sparse';

/**
 * The payload indexes the store's filters rely on. Keywords serve exact matches; `run_day` serves
 * the `run_id_from` range; `created_at` (datetime) is what `order_by` needs for newest-first lists
 * (Qdrant refuses `order_by` on a key without a range-capable index) and serves time ranges;
 * `terms` counts document frequencies for lexical search.
 */
export const MEMORY_PAYLOAD_INDEXES: Readonly<Record<string, Schemas['PayloadSchemaType']>> = {
  user_id: 'keyword',
  agent_id: 'keyword',
  run_id: 'keyword',
  hash: 'keyword',
  run_day: 'integer',
  created_at: 'datetime',
  terms: 'keyword',
};

/**
 * Creates `name` (cosine, `vectorSize` dimensions, plus the `text` sparse vector) when missing,
 * checks it otherwise, and adds missing indexes.
 */
export async function ensureMemoryCollection(
  client: QdrantClient,
  name: string,
  vectorSize: number,
): Promise<void> {
  if (!(await client.collectionExists(name)).exists) {
    try {
      await client.createCollection(name, {
        vectors: { size: vectorSize, distance: 'Cosine' },
        sparse_vectors: { [TEXT_VECTOR]: {} },
      });
    } catch (err) {
      // Another opener may have won the race; only a collection that still is not there is an error.
      if (!(await client.collectionExists(name)).exists) throw err;
    }
  }
  const info = await client.getCollection(name);
  checkVectors(name, info.config.params.vectors, vectorSize);
  if (!info.config.params.sparse_vectors?.[TEXT_VECTOR]) {
    // Qdrant cannot add a vector to an existing collection; a copy is the only way (docs/memory-search.md#qdrant).
    throw new Error(
      `Qdrant collection ${name} has no "${TEXT_VECTOR}" sparse vector (it predates lexical search): ` +
        'set QDRANT_COLLECTION to a new name and copy the memories over (docs/memory-search.md#qdrant)',
    );
  }
  for (const [field_name, field_schema] of Object.entries(MEMORY_PAYLOAD_INDEXES)) {
    if (info.payload_schema[field_name]?.data_type === field_schema) continue;
    await client.createPayloadIndex(name, { field_name, field_schema, wait: true });
  }
}

function checkVectors(name: string, vectors: Schemas['VectorsConfig'] | undefined, size: number): void {
  const params = vectors as Partial<Schemas['VectorParams']> | undefined;
  if (typeof params?.size !== 'number') {
    throw new Error(`Qdrant collection ${name} has no single unnamed vector; it was not made for memories`);
  }
  if (params.size !== size || params.distance !== 'Cosine') {
    throw new Error(
      `Qdrant collection ${name} holds ${params.size}-d ${params.distance} vectors; ` +
        `this store needs ${size}-d Cosine (a different embedder needs another collection)`,
    );
  }
}
