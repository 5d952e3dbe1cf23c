/**
 * Whether a statement asserts what holds, in the model's reading rather than by verb lists
 * (docs/memory-supersede.md#by-likeness): its likeness vector (alike-statements.ts) is compared with
 * sentences that say what holds now and sentences that only mention or tell of something; a
 * statement the word reader takes for an event or a mention ("Ended up with …") is read as an
 * assertion when it is clearly nearer the first.
 */
import type { Embedder } from '../embedding/embedder';
import { everydayBackground, lessBackground, oncePerEmbedder } from '../embedding/everyday-background';
import { dot } from '../embedding/vector-math';
import { withServiceKey } from './service-metadata';

/** Sentences that say what holds now, with nothing of any attribute. */
export const ASSERTING_SENTENCES = [
  'This is the one I use now.',
  'These days I have this one.',
  'It is my current one.',
  'From now on I go with this one.',
  'This is where I go now.',
  'I am with them now.',
];

/** Sentences that only mention something, or tell of something that happened. */
export const MENTIONING_SENTENCES = [
  'Someone mentioned it to me.',
  'I saw an advert for it.',
  'I read about it in the news.',
  'It came up in conversation.',
  'A friend recommends it.',
  'I walked past it once.',
];

const prototypes = new WeakMap<
  Embedder,
  Promise<{ asserting: Float32Array[]; mentioning: Float32Array[] }>
>();

/** The two sets of sentences as likeness vectors, once per embedder (warmed at start: memory-reembedding.ts). */
export function assertionPrototypes(
  embedder: Embedder,
): Promise<{ asserting: Float32Array[]; mentioning: Float32Array[] }> {
  return oncePerEmbedder(prototypes, embedder, async () => {
    const [asserting, mentioning, background] = await Promise.all([
      embedder.embed(ASSERTING_SENTENCES, 'query'),
      embedder.embed(MENTIONING_SENTENCES, 'query'),
      everydayBackground(embedder),
    ]);
    return {
      asserting: asserting.map((v) => lessBackground(v, background)),
      mentioning: mentioning.map((v) => lessBackground(v, background)),
    };
  });
}

/** How much nearer the asserting sentences than the mentioning ones a likeness vector lies. */
export async function assertionScore(embedder: Embedder, likeness: Float32Array): Promise<number> {
  const { asserting, mentioning } = await assertionPrototypes(embedder);
  return (
    Math.max(...asserting.map((p) => dot(p, likeness))) - Math.max(...mentioning.map((p) => dot(p, likeness)))
  );
}

/**
 * The metadata key a memory keeps when the model read its statement as asserting a value its words
 * did not: it is read so when a later statement may replace it. Like `plat_evokes`, the service's own.
 */
export const ASSERTED_METADATA_KEY = 'plat_asserts';

/** Whether a memory's statement was read as asserting by the model. */
export const assertedOf = (record: { metadata: Record<string, unknown> }): boolean =>
  record.metadata[ASSERTED_METADATA_KEY] === true;

/** `metadata` saying whether the memory's latest statement was read as asserting by the model. */
export const withAsserted = (metadata: Record<string, unknown>, asserted: boolean): Record<string, unknown> =>
  withServiceKey(metadata, ASSERTED_METADATA_KEY, asserted ? true : undefined);
