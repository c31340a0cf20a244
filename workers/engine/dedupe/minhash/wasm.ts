// The MinHash kernels as one hand-assembled WebAssembly module: shingle hashing and signatures, ~100x faster than BigInt JS.
import { compile, instantiate, moduleBytes, type WasmMemory } from './asm.js';
import { sha1Functions } from './sha1-wasm.js';
import { sigFunctions } from './sig-wasm.js';
import { xxh64Function } from './xxh64-wasm.js';

export type { WasmMemory } from './asm.js';
export { needsExact, paddedCount } from './sig-wasm.js';
export { SHA1_SCRATCH, SHA1_SLACK } from './sha1-wasm.js';

/** Function order fixes the indices `sha1` uses to call its helpers. */
const SHA1_BASE = 2;

/** The module's bytes: `sig`, `sigfast`, `sha1` (+ its helpers), `xxh64`, and one exported growable memory `mem`. */
export function minhashWasmBytes(): Uint8Array {
  return moduleBytes([...sigFunctions(), ...sha1Functions(SHA1_BASE), xxh64Function]);
}

type SigFn = (n: number, hashesOffset: number, paramsOffset: number, outOffset: number, k: number, mask: bigint) => void;

export interface MinhashKernel {
  memory: WasmMemory;
  /** Exact signature (see sig-wasm.ts); `k` a multiple of the unroll factor. */
  sig: SigFn;
  /** Signature for mask = all ones that writes a recheck word after the k values (see sig-wasm.ts). */
  sigfast: SigFn;
  /** SHA-1 prefix of every shingle (see sha1-wasm.ts). */
  sha1(count: number, buf: number, starts: number, n: number, out: number, scratch: number, mask: bigint): void;
  /** xxh64 (seed 0) of every shingle, same layout as `sha1` (see xxh64-wasm.ts). */
  xxh64(count: number, buf: number, starts: number, n: number, out: number): void;
}

let compiled: object | undefined;

/** A fresh instance with its own memory. Compiled synchronously: the module is a few KB, and Node allows it. */
export function createKernel(): MinhashKernel {
  compiled ??= compile(minhashWasmBytes());
  const ex = instantiate(compiled) as unknown as MinhashKernel & { mem: WasmMemory };
  return { memory: ex.mem, sig: ex.sig, sigfast: ex.sigfast, sha1: ex.sha1, xxh64: ex.xxh64 };
}
