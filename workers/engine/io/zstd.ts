// Loads zstd-napi (CommonJS, native) for the ESM engine when a zstd stream is first made, and exposes its streams typed.
import { createRequire } from 'node:module';
import type * as ZstdNapi from 'zstd-napi';

let zstd: typeof ZstdNapi | null = null;
/** Loading it takes ≈ 10 ms (its binding and three modules): not at start-up, where gzip corpora never need it. */
const load = (): typeof ZstdNapi => (zstd ??= createRequire(import.meta.url)('zstd-napi') as typeof ZstdNapi);

export const newZstdDecompressStream = (): ZstdNapi.DecompressStream => new (load().DecompressStream)();
export const newZstdCompressStream = (params: ConstructorParameters<typeof ZstdNapi.CompressStream>[0]): ZstdNapi.CompressStream => new (load().CompressStream)(params);
