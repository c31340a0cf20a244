// Permutations vs numpy, the wasm kernel vs the BigInt reference, SHA-1 vs node:crypto, and the golden sha1 signatures.
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../../testing.js';
import { MT19937, minhashPermutations } from './params.js';
import { referenceSignature } from './reference.js';
import { sha1Prefix64 } from './sha1.js';
import { loadXxhashApi, MinhashSigner, type SignerConfig } from './signer.js';
import { createKernel } from './wasm.js';

const DERIVED = join(CONFORMANCE, 'datatrove/data/derived');
const read = (f: string): unknown => JSON.parse(readFileSync(join(DERIVED, f), 'utf8'));
const BASE: SignerConfig = { n_grams: 5, num_buckets: 14, hashes_per_bucket: 8, seed: 1, hash_fc: 'sha1', precision: 64, profile: 'head' };

describe('permutations', () => {
  it('equal numpy RandomState(1).randint for all 224 values', () => {
    const want = read('minhash_params_seed1_112.json') as { a: string[]; b: string[] };
    const { a, b } = minhashPermutations(1, 112);
    expect(a.map(String)).toEqual(want.a);
    expect(b.map(String)).toEqual(want.b);
  });

  it('MT19937 gives the reference output of init_genrand(5489)', () => {
    const mt = new MT19937(5489);
    expect([mt.u32(), mt.u32()]).toEqual([3499211612, 581869302]);
  });
});

describe('wasm kernel', () => {
  it('matches the BigInt reference bit for bit on edge and random inputs, 32 and 64 bit', () => {
    const perm = minhashPermutations(7, 24);
    const k = createKernel();
    const mem = new BigUint64Array(k.memory.buffer);
    perm.a.forEach((a, j) => ((mem[2 * j] = a), (mem[2 * j + 1] = perm.b[j] as bigint)));
    let x = 0x243f6a8885a308d3n;
    const hashes = [0n, 1n, (1n << 61n) - 1n, 1n << 61n, (1n << 64n) - 1n, (1n << 63n) + 5n];
    for (let i = 0; i < 300; i++) hashes.push((x = BigInt.asUintN(64, x * 6364136223846793005n + 1442695040888963407n)));
    hashes.forEach((h, i) => (mem[200 + i] = h));
    for (const precision of [64, 32] as const) {
      k.sig(hashes.length, 1600, 0, 800, 24, precision === 32 ? 0xffffffffn : -1n);
      expect(Array.from(new BigUint64Array(k.memory.buffer, 800, 24))).toEqual(referenceSignature(hashes, perm, precision));
    }
  });
});

describe('shingle hashes', () => {
  it('sha1Prefix64 equals the first 8 bytes of node:crypto sha1, little-endian, across block boundaries', () => {
    const out = new Uint32Array(2);
    for (let n = 0; n < 140; n++) {
      const b = Buffer.from('héllo wörld '.repeat(20)).subarray(0, n);
      sha1Prefix64(b, 0, n, out, 0);
      const d = hash('sha1', b, 'buffer') as unknown as Buffer;
      expect([out[0], out[1]]).toEqual([d.readUInt32LE(0), d.readUInt32LE(4)]);
    }
  });

  it('xxhash shingles are xxh64/xxh32 (seed 0) of the UTF-8 shingle', async () => {
    const xxh = await loadXxhashApi();
    const text = 'Über den Wolken muss die Freiheit wohl grenzenlos sein';
    for (const precision of [64, 32] as const) {
      const s = new MinhashSigner({ ...BASE, hash_fc: 'xxhash', precision }, xxh);
      const toks = s.tokens(text);
      const want = toks.slice(0, toks.length - 4).map((_, i) => {
        const b = Buffer.from(toks.slice(i, i + 5).join(' '));
        return precision === 64 ? xxh.h64Raw(b, 0n) : BigInt(xxh.h32Raw(b, 0));
      });
      expect(s.shingleHashes(text)).toEqual(want);
    }
  });
});

describe('golden sha1 signatures (minhash_golden_sha1.json)', () => {
  type Golden = { text: string; precision: 32 | 64; simplified_text_head: string; shingle_hashes: string[]; signature_buckets: string[][] };
  const golden = (read('minhash_golden_sha1.json') as { cases: Golden[] }).cases;
  for (const [i, g] of golden.entries()) {
    it(`case ${i} (${g.precision}-bit)`, () => {
      const s = new MinhashSigner({ ...BASE, precision: g.precision });
      expect(s.tokens(g.text).join(' ')).toBe(g.simplified_text_head);
      expect(s.shingleHashes(g.text).map(String)).toEqual(g.shingle_hashes);
      expect(Array.from(s.signature(g.text) ?? []).map(String)).toEqual(g.signature_buckets.flat());
      expect(referenceSignature(g.shingle_hashes.map(BigInt), minhashPermutations(1, 112), g.precision)?.map(String)).toEqual(g.signature_buckets.flat());
    });
  }

  it('fineweb-2024 profile shingles the v0.2.0 simplified text', () => {
    const g = golden[2] as Golden;
    const s = new MinhashSigner({ ...BASE, profile: 'fineweb-2024' });
    // v0.2.0 keeps a double space ("on 0  isnt"); NLTK's tokenizer drops the empty token.
    expect(s.tokens(g.text)).toEqual(['hello', 'world', 'its', '0', 'degrees', 'on', '0', 'isnt', 'it', 'new', 'line', 'here', 'with', 'spaces']);
  });

  it('a text with fewer than n_grams tokens has no signature', () => {
    expect(new MinhashSigner(BASE).signature('only four words here')).toBeNull();
  });
});
