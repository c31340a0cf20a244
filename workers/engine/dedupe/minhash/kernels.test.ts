// The WebAssembly kernels against their references: SHA-1 vs node:crypto, xxh64 vs xxhash-wasm, signatures vs BigInt.
import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rng } from '../../testing.js';
import { minhashPermutations, MERSENNE_PRIME } from './params.js';
import { referenceSignature } from './reference.js';
import { loadXxhashApi } from './signer.js';
import { createKernel, needsExact, SHA1_SCRATCH, type MinhashKernel } from './wasm.js';

const SCRATCH = 0;
const STARTS = SHA1_SCRATCH;
const TEXT = 1 << 16;
const OUT = 1 << 17;

/** Tokens laid out as the signer does (UTF-8, one space after each), `n`-gram shingles as strings. */
function layout(k: MinhashKernel, tokens: string[], n: number): string[] {
  const mem = Buffer.from(k.memory.buffer);
  const starts = new Int32Array(k.memory.buffer, STARTS, tokens.length + 1);
  let off = 0;
  tokens.forEach((t, i) => {
    starts[i] = off;
    off += mem.write(t, TEXT + off, 'utf8');
    mem[TEXT + off++] = 0x20;
  });
  starts[tokens.length] = off;
  return tokens.slice(0, Math.max(0, tokens.length - n + 1)).map((_, i) => tokens.slice(i, i + n).join(' '));
}

function words(seed: number, count: number, maxLen: number): string[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(r() * maxLen) }, () => 'aé€😀x'[Math.floor(r() * 5)]).join(''));
}

describe('sha1 kernel', () => {
  it('gives the first 8 digest bytes (little-endian) of every shingle, one-block SIMD lanes and long shingles mixed', () => {
    const k = createKernel();
    k.memory.grow(4);
    const lengths = Array.from({ length: 140 }, (_, i) => 'abcdefghij'.repeat(14).slice(0, i));
    for (const [tokens, n] of [[lengths, 1], [words(1, 203, 12), 3], [words(2, 7, 30), 5]] as const) {
      const shingles = layout(k, [...tokens], n);
      for (const mask of [-1n, 0xffffffffn]) {
        k.sha1(shingles.length, TEXT, STARTS, n, OUT, SCRATCH, mask);
        const got = Array.from(new BigUint64Array(k.memory.buffer, OUT, shingles.length));
        const want = shingles.map((s) => (hash('sha1', Buffer.from(s, 'utf8'), 'buffer') as unknown as Buffer).readBigUInt64LE(0) & mask);
        expect(got).toEqual(want);
      }
    }
  });
});

describe('xxh64 kernel', () => {
  it('equals xxhash-wasm h64Raw (seed 0) for lengths across the 32-byte stripe and 8/4/1-byte tails', async () => {
    const xxh = await loadXxhashApi();
    const k = createKernel();
    k.memory.grow(4);
    const lengths = Array.from({ length: 100 }, (_, i) => 'The quick brown fox jumps over the lazy dog '.repeat(3).slice(0, i));
    for (const [tokens, n] of [[lengths, 1], [words(3, 300, 9), 5]] as const) {
      const shingles = layout(k, [...tokens], n);
      k.xxh64(shingles.length, TEXT, STARTS, n, OUT);
      expect(Array.from(new BigUint64Array(k.memory.buffer, OUT, shingles.length))).toEqual(shingles.map((s) => xxh.h64Raw(Buffer.from(s, 'utf8'), 0n)));
    }
  });
});

describe('signature kernels', () => {
  const perm = minhashPermutations(7, 24);
  function run(hashes: bigint[], fast: boolean, precision: 32 | 64): { sig: bigint[]; recheck: boolean } {
    const k = createKernel();
    const mem = new BigUint64Array(k.memory.buffer);
    perm.a.forEach((a, j) => ((mem[2 * j] = a), (mem[2 * j + 1] = perm.b[j] as bigint)));
    hashes.forEach((h, i) => (mem[200 + i] = h));
    const mask = precision === 32 ? 0xffffffffn : -1n;
    (fast ? k.sigfast : k.sig)(hashes.length, 1600, 0, 800, 24, mask);
    return { sig: Array.from(new BigUint64Array(k.memory.buffer, 800, 24)), recheck: needsExact(mem[100 + 24] as bigint) };
  }

  it('match the BigInt reference bit for bit on edge and random inputs, 32 and 64 bit', () => {
    let x = 0x243f6a8885a308d3n;
    const hashes = [0n, 1n, MERSENNE_PRIME, MERSENNE_PRIME + 1n, (1n << 64n) - 1n, (1n << 63n) + 5n];
    for (let i = 0; i < 300; i++) hashes.push((x = BigInt.asUintN(64, x * 6364136223846793005n + 1442695040888963407n)));
    for (const precision of [64, 32] as const) expect(run(hashes, false, precision).sig).toEqual(referenceSignature(hashes, perm, precision));
    const fast = run(hashes, true, 64);
    expect(fast.recheck).toBe(false);
    expect(fast.sig).toEqual(referenceSignature(hashes, perm, 64));
  });

  it('sigfast flags the rare value whose folded residue is ≥ P, where its plain minimum would be wrong', () => {
    // h with h * a + b ≡ P (mod 2^64) for an odd a: (v & P) + (v >> 61) = P, whose residue is 0.
    const j = perm.a.findIndex((a) => (a & 1n) === 1n);
    const a = perm.a[j] as bigint;
    let inv = 1n;
    for (let i = 0; i < 7; i++) inv = BigInt.asUintN(64, inv * (2n - a * inv));
    const h = BigInt.asUintN(64, (MERSENNE_PRIME - (perm.b[j] as bigint)) * inv);
    const hashes = [h, 12345n, 987654321987n];
    const want = referenceSignature(hashes, perm, 64) as bigint[];
    expect(want[j]).toBe(0n);
    const fast = run(hashes, true, 64);
    expect(fast.recheck).toBe(true);
    expect(fast.sig[j]).not.toBe(0n);
    expect(run(hashes, false, 64).sig).toEqual(want);
  });
});
