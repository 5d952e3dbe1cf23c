/**
 * The compiled vector-scan kernel (the text is in `int16-dot-wat.ts`; a unit test recompiles it
 * with wabt and checks these bytes). Each instance has its own memory: one per vector partition.
 */
export const INT16_DOT_WASM_BASE64 =
  'AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARzY2FuAAAKvAIBuQICBH8EeyADQQF0IQggACEHAkADQCAFIAJPDQH9DAAAAAAAAAAAAAAAAAAAAAAhCf0MAAAAAAAAAAAAAAAAAAAAACEK/QwAAAAAAAAAAAAAAAAAAAAAIQv9DAAAAAAAAAAAAAAAAAAAAAAhDEEAIQYDQCAJIAcgBmr9AAQAIAEgBmr9AAQA/boB/a4BIQkgCiAHIAZq/QAEECABIAZq/QAEEP26Af2uASEKIAsgByAGav0ABCAgASAGav0ABCD9ugH9rgEhCyAMIAcgBmr9AAQwIAEgBmr9AAQw/boB/a4BIQwgBkHAAGohBiAGIAhJDQALIAkgCv2uASALIAz9rgH9rgEhCSAEIAVBAnRqIAn9GwAgCf0bAWogCf0bAiAJ/RsDamo2AgAgByAIaiEHIAVBAWohBQwACwsL';

/** The parts of a WebAssembly memory the index uses. */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The kernel's exports. */
export interface Int16DotKernel {
  memory: KernelMemory;
  /** out[i] = dot(vec[i], query) for i in [0, n) (byte offsets into memory). */
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
export function newInt16DotKernel(): Int16DotKernel {
  compiled ??= new wasm.Module(Buffer.from(INT16_DOT_WASM_BASE64, 'base64'));
  return new wasm.Instance(compiled, {}).exports as Int16DotKernel;
}
