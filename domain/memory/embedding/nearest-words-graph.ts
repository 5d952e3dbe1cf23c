/**
 * The ONNX graph the embedding worker scores the word table with (word-table.ts): `scores = q × m`,
 * then the `k` best of each row. onnxruntime runs it in about a millisecond for 20k words, where a
 * loop in JavaScript takes ten; it runs on the worker's own onnxruntime, on one thread, so it never
 * competes with the service for a second core.
 *
 * The bytes are an ONNX ModelProto written field by field (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto):
 * inputs `q` float [rows, dimensions], `m` float [dimensions, words], `k` int64 [1]; outputs
 * `values` float [rows, k] and `indices` int64 [rows, k], best first.
 */

const FLOAT = 1;
const INT64 = 7;

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A varint field (wire type 0). */
const intField = (field: number, value: number): number[] => [...varint(field << 3), ...varint(value)];

/** A length-delimited field (wire type 2): bytes, a string or a nested message. */
function bytesField(field: number, bytes: number[] | string): number[] {
  const body = typeof bytes === 'string' ? [...Buffer.from(bytes, 'utf8')] : bytes;
  return [...varint((field << 3) | 2), ...varint(body.length), ...body];
}

/** ValueInfoProto: a named tensor of `elemType` whose dimensions are all symbolic. */
function tensorInfo(name: string, elemType: number, dims: string[]): number[] {
  const shape = dims.flatMap((d) => bytesField(1, bytesField(2, d)));
  const tensorType = [...intField(1, elemType), ...bytesField(2, shape)];
  return [...bytesField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

/** NodeProto. */
const node = (op: string, inputs: string[], outputs: string[]): number[] => [
  ...inputs.flatMap((i) => bytesField(1, i)),
  ...outputs.flatMap((o) => bytesField(2, o)),
  ...bytesField(3, op.toLowerCase()),
  ...bytesField(4, op),
];

/** The graph's ModelProto bytes (opset 13). */
export function nearestWordsGraph(): Uint8Array {
  const graph = [
    ...bytesField(1, node('MatMul', ['q', 'm'], ['scores'])),
    ...bytesField(1, node('TopK', ['scores', 'k'], ['values', 'indices'])),
    ...bytesField(2, 'nearest_words'),
    ...bytesField(11, tensorInfo('q', FLOAT, ['rows', 'dimensions'])),
    ...bytesField(11, tensorInfo('m', FLOAT, ['dimensions', 'words'])),
    ...bytesField(11, tensorInfo('k', INT64, ['one'])),
    ...bytesField(12, tensorInfo('values', FLOAT, ['rows', 'best'])),
    ...bytesField(12, tensorInfo('indices', INT64, ['rows', 'best'])),
  ];
  const opset = [...bytesField(1, ''), ...intField(2, 13)];
  return Uint8Array.from([...intField(1, 8), ...bytesField(7, graph), ...bytesField(8, opset)]);
}
