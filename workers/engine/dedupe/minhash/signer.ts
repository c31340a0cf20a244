// Text → shingle hashes → MinHash signature → band hashes, as DataTrove's MinhashDedupSignature (spec §11.2-§11.3).
import { createRequire } from 'node:module';
import type { XXHashAPI } from 'xxhash-wasm';
import { simplifyText } from '../../text/simplify.js';
import { splitIntoWords, splitIntoWordsNltk } from '../../text/words.js';
import { minhashPermutations } from './params.js';
import { sha1Prefix64 } from './sha1.js';
import { createKernel, type MinhashKernel } from './wasm.js';

export interface SignerConfig {
  n_grams: number;
  num_buckets: number;
  hashes_per_bucket: number;
  seed: number;
  hash_fc: 'sha1' | 'xxhash';
  precision: 32 | 64;
  /** `head`: HEAD simplify_text + spaCy-en tokens; `fineweb-2024`: v0.2.0 simplify_text + NLTK tokens. */
  profile: 'head' | 'fineweb-2024';
}

let xxhash: Promise<XXHashAPI> | undefined;
export function loadXxhashApi(): Promise<XXHashAPI> {
  // tsc's NodeNext view of the package's types is CJS-only, so it is loaded through require.
  xxhash ??= (createRequire(import.meta.url)('xxhash-wasm') as () => Promise<XXHashAPI>)();
  return xxhash;
}

const PAGE = 65536;

export class MinhashSigner {
  readonly numHashes: number;
  readonly #k: MinhashKernel;
  readonly #xxh: XXHashAPI | undefined;
  readonly #outOff: number;
  readonly #hashOff: number;
  #utf8 = Buffer.allocUnsafe(1 << 16);
  #starts = new Int32Array(1024);

  constructor(readonly cfg: SignerConfig, xxh?: XXHashAPI) {
    if (cfg.hash_fc === 'xxhash' && xxh === undefined) throw new Error('MinhashSigner: xxhash needs the loaded xxhash-wasm API (MinhashSigner.create)');
    this.#xxh = xxh;
    this.numHashes = cfg.num_buckets * cfg.hashes_per_bucket;
    this.#k = createKernel();
    const { a, b } = minhashPermutations(cfg.seed, this.numHashes);
    this.#outOff = this.numHashes * 16;
    this.#hashOff = this.#outOff + this.numHashes * 8;
    this.#ensure(this.#hashOff);
    const params = new BigUint64Array(this.#k.memory.buffer, 0, this.numHashes * 2);
    for (let j = 0; j < this.numHashes; j++) {
      params[2 * j] = a[j] as bigint;
      params[2 * j + 1] = b[j] as bigint;
    }
  }

  static async create(cfg: SignerConfig): Promise<MinhashSigner> {
    return new MinhashSigner(cfg, cfg.hash_fc === 'xxhash' ? await loadXxhashApi() : undefined);
  }

  /** The word tokens DataTrove shingles: `word_tokenize(simplify_text(text))`. */
  tokens(text: string): string[] {
    if (this.cfg.profile === 'head') return splitIntoWords(simplifyText(text, {}, 'head'));
    return splitIntoWordsNltk(simplifyText(text, {}, 'fineweb-2024'));
  }

  /**
   * Hashes every shingle (`" ".join(tokens[i:i+n])`, not deduplicated) into the kernel's memory and returns
   * how many there are. The tokens are UTF-8 encoded once, joined by spaces, so each shingle is a byte range.
   */
  #hashShingles(tokens: readonly string[]): number {
    const n = this.cfg.n_grams;
    const count = tokens.length - n + 1;
    if (count <= 0) return 0;
    if (this.#starts.length < tokens.length + 1) this.#starts = new Int32Array(tokens.length * 2 + 1);
    const starts = this.#starts;
    let need = 0;
    for (const t of tokens) need += t.length * 3 + 1;
    if (this.#utf8.length < need) this.#utf8 = Buffer.allocUnsafe(need * 2);
    const buf = this.#utf8;
    let off = 0;
    for (let i = 0; i < tokens.length; i++) {
      starts[i] = off;
      off += buf.write(tokens[i] as string, off, 'utf8');
      buf[off++] = 0x20;
    }
    starts[tokens.length] = off;
    this.#ensure(this.#hashOff + count * 8);
    const mem = this.#k.memory.buffer;
    const words = new Uint32Array(mem, this.#hashOff, count * 2);
    const p32 = this.cfg.precision === 32;
    if (this.cfg.hash_fc === 'sha1') {
      for (let i = 0; i < count; i++) {
        sha1Prefix64(buf, starts[i] as number, (starts[i + n] as number) - 1, words, 2 * i);
        if (p32) words[2 * i + 1] = 0;
      }
    } else {
      const xxh = this.#xxh as XXHashAPI;
      if (p32) {
        for (let i = 0; i < count; i++) {
          words[2 * i] = xxh.h32Raw(buf.subarray(starts[i] as number, (starts[i + n] as number) - 1), 0);
          words[2 * i + 1] = 0;
        }
      } else {
        const big = new BigUint64Array(mem, this.#hashOff, count);
        for (let i = 0; i < count; i++) big[i] = xxh.h64Raw(buf.subarray(starts[i] as number, (starts[i + n] as number) - 1), 0n);
      }
    }
    return count;
  }

  /** The shingle hashes of a text, as BigInts (for tests and the reference implementation). */
  shingleHashes(text: string): bigint[] {
    const count = this.#hashShingles(this.tokens(text));
    return Array.from(new BigUint64Array(this.#k.memory.buffer, this.#hashOff, count));
  }

  /**
   * The signature of `text` as a view of `numHashes` u64 values (valid until the next call), or null when
   * the text has fewer than `n_grams` tokens (DataTrove writes no signature for such a document).
   */
  signature(text: string): BigUint64Array | null {
    return this.#sign(this.#hashShingles(this.tokens(text)));
  }

  /** The signature as 2 × numHashes u32 words (low, high), valid until the next call; null without shingles. */
  signatureWords(text: string): Uint32Array | null {
    const count = this.#hashShingles(this.tokens(text));
    if (count === 0) return null;
    this.#run(count);
    return new Uint32Array(this.#k.memory.buffer, this.#outOff, this.numHashes * 2);
  }

  #sign(count: number): BigUint64Array | null {
    if (count === 0) return null;
    this.#run(count);
    return new BigUint64Array(this.#k.memory.buffer, this.#outOff, this.numHashes);
  }

  #run(count: number): void {
    this.#k.sig(count, this.#hashOff, 0, this.#outOff, this.numHashes, this.cfg.precision === 32 ? 0xffffffffn : -1n);
  }

  #ensure(bytes: number): void {
    const mem = this.#k.memory;
    if (mem.buffer.byteLength < bytes) mem.grow(Math.ceil((bytes - mem.buffer.byteLength) / PAGE));
  }
}
