/** Small vector arithmetic on the model's vectors (the Float32Array the embedder returns). */

/** The dot product: the cosine, for two unit-length vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
