// Public API of the engine's file layer: codecs, streaming readers, atomic writers, globs, Dolma paths.
export { chooseReadCodec, extForCodec, inferCodec, parseCodecName, sniffCodec, type Codec } from './codec.js';
export type { RawDigest } from './source.js';
export { compressedDeltas, readLineBatches, type LineBatch, type ProgressDelta, type ReadOptions, type ReadProgress } from './read.js';
export { parseDocumentLine, readJsonRecords, type JsonReadOptions, type JsonRecord } from './json.js';
export { AtomicWriter, checkLevel, discardTemp, promoteTemp, writeFileAtomic, writeLines, type AtomicWriterOptions, type WrittenFile } from './write.js';
export { compareCodePoints, expandGlobs, hasGlob, type GlobOptions } from './glob.js';
export { attributePathFor, mixerUnshuffledOutputPath, shardName } from './paths.js';
