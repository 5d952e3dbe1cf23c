/**
 * The compiled vector-scan kernel (the text is in `int8-dot-wat.ts`; a unit test recompiles it
 * with wabt and checks these bytes). Each instance has its own memory: one per vector partition.
 */
export const INT8_DOT_WASM_BASE64 =
  'AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARzY2FuAAAKuAIBtQICBH8FeyAAIQcCQANAIAUgAk8NAf0MAAAAAAAAAAAAAAAAAAAAACEK/QwAAAAAAAAAAAAAAAAAAAAAIQv9DAAAAAAAAAAAAAAAAAAAAAAhDP0MAAAAAAAAAAAAAAAAAAAAACENQQAhBgNAIAEgBkEBdGohCCAHIAZq/QAEACEJIAogCf2HASAI/QAEAP26Af2uASEKIAsgCf2IASAI/QAEEP26Af2uASELIAcgBmr9AAQQIQkgDCAJ/YcBIAj9AAQg/boB/a4BIQwgDSAJ/YgBIAj9AAQw/boB/a4BIQ0gBkEgaiEGIAYgA0kNAAsgCiAL/a4BIAwgDf2uAf2uASEKIAQgBUECdGogCv0bACAK/RsBaiAK/RsCIAr9GwNqajYCACAHIANqIQcgBUEBaiEFDAALCws=';

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
