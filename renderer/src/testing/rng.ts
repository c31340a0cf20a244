// Seeded PRNG for renderer tests: the same mulberry32 the engine's tests and demo use.
export { mulberry32 as rng } from '../../../shared/prng.js';
