/**
 * What every everyday sentence has in common, to the model: the mean question vector of a few
 * sentences about nothing in particular (docs/memory-supersede.md#by-likeness). Taken away from a
 * statement, what is left is what it is about, not that it is a first-person sentence of daily life.
 */
import type { Embedder } from './embedder';
import { dot } from './vector-math';

/** Sentences about nothing in particular. */
export const BACKGROUND_SENTENCES = [
  'The weather was lovely so we had lunch outside.',
  'I need to call the plumber about the leak.',
  'Our flight to Madrid leaves at six.',
  'She said the meeting moved to Thursday.',
  'I spent the morning answering emails.',
  'We watched a film with the kids.',
  'The printer at the office jammed again.',
  'Tom and Lucy came over for dinner.',
  'I forgot my umbrella on the bus.',
  'The new season of the show starts in May.',
  'My back hurts after the long drive.',
  'We ordered pizza from the place around the corner.',
];

/**
 * `make(embedder)`, once per embedder and process: what is derived from fixed sentences is the same
 * on every host, so each works it out itself. A failed one is tried again on the next use.
 */
export function oncePerEmbedder<T>(
  cache: WeakMap<Embedder, Promise<T>>,
  embedder: Embedder,
  make: (embedder: Embedder) => Promise<T>,
): Promise<T> {
  let made = cache.get(embedder);
  if (!made) {
    made = make(embedder);
    made.catch(() => cache.delete(embedder));
    cache.set(embedder, made);
  }
  return made;
}

const backgrounds = new WeakMap<Embedder, Promise<Float32Array>>();

/** The mean of the background sentences' question vectors (not unit length), once per embedder. */
export function everydayBackground(embedder: Embedder): Promise<Float32Array> {
  return oncePerEmbedder(backgrounds, embedder, async () => {
    const vectors = await embedder.embed(BACKGROUND_SENTENCES, 'query');
    const mean = new Float32Array(embedder.dimensions);
    for (const v of vectors) for (let i = 0; i < mean.length; i++) mean[i] += v[i] / vectors.length;
    return mean;
  });
}

/** `vector` less the background, unit length (`vector` itself if nothing is left). */
export function lessBackground(vector: Float32Array, background: Float32Array): Float32Array {
  const rest = vector.map((x, i) => x - background[i]);
  const length = Math.sqrt(dot(rest, rest));
  return length > 0 ? rest.map((x) => x / length) : vector;
}
