// Public face of the bloom filter: sizing formulas, the filter, its verified file format.
export { falsePositiveRateAt, geometryFor, MAX_BITS, MAX_K, MIN_BITS, optimalNumberOfHashers, probOfFalsePositive, suggestSizeInBytes, type BloomGeometry } from './sizing.js';
export { BloomFilter, type BloomStats } from './filter.js';
export { KeyEncoder, loadXxhash } from './hash.js';
export { FORMAT_VERSION, loadFilter, saveFilter, type BloomManifest, type LoadedFilter, type ManifestEntry } from './file.js';
