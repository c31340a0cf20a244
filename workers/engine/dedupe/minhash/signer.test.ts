// Permutations vs numpy, shingle hashes, the one-pass word path vs the general one, and the golden sha1 signatures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, rng } from '../../testing.js';
import { MT19937, minhashPermutations } from './params.js';
import { referenceSignature } from './reference.js';
import { loadXxhashApi, MinhashSigner, type SignerConfig } from './signer.js';

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

describe('shingle hashes', () => {
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

describe('one-pass word path', () => {
  it('gives the same shingle hashes and signatures as the general path, for every hash and precision', async () => {
    const xxh = await loadXxhashApi();
    const r = rng(11);
    const vocab = ['The', 'dont', 'café', 'Ångström', '3.14', '1,000', 'km', '5km', 'it’s', '“quoted”', '—', 'e.g.', 'naïve', 'user@example.com', 'Σ', '١'];
    const docs = Array.from({ length: 40 }, (_, d) =>
      Array.from({ length: 3 + Math.floor(r() * 60) }, () => (r() < 0.6 ? 'abcdefghij'.slice(0, 1 + Math.floor(r() * 9)) : vocab[Math.floor(r() * (d % 4 === 0 ? vocab.length : vocab.length - 2))])).join(r() < 0.1 ? '\n' : ' '),
    );
    for (const hash_fc of ['sha1', 'xxhash'] as const) {
      for (const precision of [64, 32] as const) {
        const cfg = { ...BASE, hash_fc, precision };
        const fast = new MinhashSigner(cfg, xxh);
        const general = new MinhashSigner(cfg, xxh, { fastText: false });
        for (const d of docs) {
          expect(fast.shingleHashes(d), d).toEqual(general.shingleHashes(d));
          expect(Array.from(fast.signature(d) ?? []), d).toEqual(Array.from(general.signature(d) ?? []));
        }
      }
    }
  });
});
