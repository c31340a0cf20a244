// Loads zstd-napi (CommonJS, native) once for the ESM engine and exposes its stream classes typed.
import { createRequire } from 'node:module';
import type * as ZstdNapi from 'zstd-napi';

const require = createRequire(import.meta.url);
const zstd = require('zstd-napi') as typeof ZstdNapi;

export const ZstdDecompressStream = zstd.DecompressStream;
export const ZstdCompressStream = zstd.CompressStream;
