/**
 * The compiled vector-scan kernel (the text is in `int8-dot-wat.ts`; a unit test recompiles it
 * with wabt and checks these bytes). Each instance has its own memory: one per vector partition.
 */
export const INT8_DOT_WASM_BASE64 =
  'AGFzbQEAAAABIARgBX9/f39/AGAGf39/f39/AGADf39/AGAEf39/fwF/AwYFAAEAAgMFAwEAAQc8BgZtZW1vcnkCAARzY2FuAAAJc2Nhbl9yb3dzAAEHaGFtbWluZwACCWhpc3RvZ3JhbQADBnNlbGVjdAAECqMJBbUCAgR/BXsgACEHAkADQCAFIAJPDQH9DAAAAAAAAAAAAAAAAAAAAAAhCv0MAAAAAAAAAAAAAAAAAAAAACEL/QwAAAAAAAAAAAAAAAAAAAAAIQz9DAAAAAAAAAAAAAAAAAAAAAAhDUEAIQYDQCABIAZBAXRqIQggByAGav0ABAAhCSAKIAn9hwEgCP0ABAD9ugH9rgEhCiALIAn9iAEgCP0ABBD9ugH9rgEhCyAHIAZq/QAEECEJIAwgCf2HASAI/QAEIP26Af2uASEMIA0gCf2IASAI/QAEMP26Af2uASENIAZBIGohBiAGIANJDQALIAogC/2uASAMIA39rgH9rgEhCiAEIAVBAnRqIAr9GwAgCv0bAWogCv0bAiAK/RsDamo2AgAgByADaiEHIAVBAWohBQwACwsLhwQCBX8IewJAA0AgBkEBaiADTw0BIAAgAiAGQQJ0aigCACAEbGohCCAAIAIgBkECdGooAgQgBGxqIQn9DAAAAAAAAAAAAAAAAAAAAAAhD/0MAAAAAAAAAAAAAAAAAAAAACEQ/QwAAAAAAAAAAAAAAAAAAAAAIRH9DAAAAAAAAAAAAAAAAAAAAAAhEkEAIQcDQCABIAdBAXRqIQogCCAHav0ABAAhCyAJIAdq/QAEACEMIAr9AAQAIQ0gCv0ABBAhDiAPIAv9hwEgDf26Af2uASEPIBAgC/2IASAO/boB/a4BIRAgESAM/YcBIA39ugH9rgEhESASIAz9iAEgDv26Af2uASESIAggB2r9AAQQIQsgCSAHav0ABBAhDCAK/QAEICENIAr9AAQwIQ4gDyAL/YcBIA39ugH9rgEhDyAQIAv9iAEgDv26Af2uASEQIBEgDP2HASAN/boB/a4BIREgEiAM/YgBIA79ugH9rgEhEiAHQSBqIQcgByAESQ0ACyAPIBD9rgEhDyARIBL9rgEhESAFIAZBAnRqIA/9GwAgD/0bAWogD/0bAiAP/RsDamo2AgAgBSAGQQJ0aiAR/RsAIBH9GwFqIBH9GwIgEf0bA2pqNgIEIAZBAmohBgwACwsgBiADSQRAIAAgAiAGQQJ0aigCACAEbGogAUEBIAQgBSAGQQJ0ahAACwvjAQIFfwF7IANBfHEhCSAAIQcCQANAIAUgAk8NAf0MAAAAAAAAAAAAAAAAAAAAACEKQQAhBgJAA0AgBiAJTw0BIAogByAGQQJ0av0ABAAgASAGQQJ0av0ABAD9Uf1i/X39jgEhCiAGQQRqIQYMAAsLIAr9fyEKIAr9GwAgCv0bAWogCv0bAiAK/RsDamohCAJAA0AgBiADTw0BIAggByAGQQJ0aigCACABIAZBAnRqKAIAc2lqIQggBkEBaiEGDAALCyAEIAVBAnRqIAg2AgAgByADQQJ0aiEHIAVBAWohBQwACwsLOgECfwJAA0AgAyABTw0BIAIgACADQQJ0aigCAEECdGohBCAEIAQoAgBBAWo2AgAgA0EBaiEDDAALCwtBAQJ/AkADQCAEIAFPDQEgACAEQQJ0aigCACACTQRAIAMgBUECdGogBDYCACAFQQFqIQULIARBAWohBAwACwsgBQs=';

/** The parts of a WebAssembly memory the index uses. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The kernel's exports. */
export interface Int8DotKernel {
  memory: KernelMemory;
  /** out[i] = dot(vec[i], query) for i in [0, n): int8 rows, int16 query (byte offsets into memory). */
  scan(vec: number, query: number, n: number, dims: number, out: number): void;
  /** out[k] = dot(vec[idx[k]], query) for k in [0, m): the int8 scan of the listed rows (idx: int32 row numbers), two at a time. */
  scan_rows(vec: number, query: number, idx: number, m: number, dims: number, out: number): void;
  /** out[i] = the bits code i and the query's code differ in, for i in [0, n); codes of `words` int32 words. */
  hamming(codes: number, query: number, n: number, words: number, out: number): void;
  /** hist[dist[i]] += 1 for i in [0, n) (int32 distances and counts). */
  histogram(dist: number, n: number, hist: number): void;
  /** The i in [0, n) with dist[i] <= cut, ascending, into out; answers how many. */
  select(dist: number, n: number, cut: number, out: number): number;
}

/** The WebAssembly API as far as used here (the global exists in Node; its types come with the DOM lib). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

/** A fresh kernel instance with its own (growable) memory. */
export function newInt8DotKernel(): Int8DotKernel {
  compiled ??= new wasm.Module(Buffer.from(INT8_DOT_WASM_BASE64, 'base64'));
  return new wasm.Instance(compiled, {}).exports as Int8DotKernel;
}
