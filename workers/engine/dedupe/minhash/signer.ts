// Text → shingle hashes → MinHash signature → band hashes, as DataTrove's MinhashDedupSignature (spec §11.2-§11.3).
import { createRequire } from 'node:module';
import type { XXHashAPI } from 'xxhash-wasm';
import { HeadWordsWriter } from '../../text/head-words.js';
import { simplifyText } from '../../text/simplify.js';
import { splitIntoWords, splitIntoWordsNltk } from '../../text/words.js';
import { minhashPermutations } from './params.js';
import { createKernel, needsExact, paddedCount, SHA1_SCRATCH, SHA1_SLACK, type MinhashKernel } from './wasm.js';

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

export interface SignerOptions {
  /** The one-pass word writer for `head` on ASCII-letter text (default true; false forces the general path, for tests). */
  fastText?: boolean;
}

let xxhash: Promise<XXHashAPI> | undefined;
export function loadXxhashApi(): Promise<XXHashAPI> {
  // tsc's NodeNext view of the package's types is CJS-only, so it is loaded through require.
  xxhash ??= (createRequire(import.meta.url)('xxhash-wasm') as () => Promise<XXHashAPI>)();
  return xxhash;
}

const PAGE = 65536;
const align = (x: number): number => (x + 15) & ~15;
let headWords: HeadWordsWriter | undefined;

/**
 * One document at a time in three stages, all in the kernel's memory: `prepare` writes the words as UTF-8 joined by
 * spaces plus each word's start offset (so a shingle is a byte range), `hash` hashes every shingle, `sign` takes the
 * minimum per permutation. Layout: permutations, signature, scratch, then per document words, starts, hashes.
 */
export class MinhashSigner {
  readonly numHashes: number;
  readonly #k: MinhashKernel;
  readonly #xxh: XXHashAPI | undefined;
  readonly #fast: HeadWordsWriter | undefined;
  readonly #slots: number;
  readonly #outOff: number;
  readonly #scratchOff: number;
  readonly #textOff: number;
  #startsOff = 0;
  #hashOff = 0;
  #starts = new Int32Array(1024);

  constructor(readonly cfg: SignerConfig, xxh?: XXHashAPI, opts: SignerOptions = {}) {
    if (cfg.hash_fc === 'xxhash' && xxh === undefined) throw new Error('MinhashSigner: xxhash needs the loaded xxhash-wasm API (MinhashSigner.create)');
    this.#xxh = xxh;
    if (cfg.profile === 'head' && opts.fastText !== false) this.#fast = headWords ??= new HeadWordsWriter();
    this.numHashes = cfg.num_buckets * cfg.hashes_per_bucket;
    this.#slots = paddedCount(this.numHashes);
    this.#k = createKernel();
    this.#outOff = this.#slots * 16;
    this.#scratchOff = align(this.#outOff + this.#slots * 8 + 8);
    this.#textOff = this.#scratchOff + SHA1_SCRATCH;
    this.#ensure(this.#textOff);
    const { a, b } = minhashPermutations(cfg.seed, this.numHashes);
    const params = new BigUint64Array(this.#k.memory.buffer, 0, this.#slots * 2);
    for (let j = 0; j < this.#slots; j++) {
      params[2 * j] = j < this.numHashes ? (a[j] as bigint) : 1n;
      params[2 * j + 1] = j < this.numHashes ? (b[j] as bigint) : 0n;
    }
  }

  static async create(cfg: SignerConfig, opts: SignerOptions = {}): Promise<MinhashSigner> {
    return new MinhashSigner(cfg, cfg.hash_fc === 'xxhash' ? await loadXxhashApi() : undefined, opts);
  }

  /** The word tokens DataTrove shingles: `word_tokenize(simplify_text(text))` (the general path, as strings). */
  tokens(text: string): string[] {
    if (this.cfg.profile === 'head') return splitIntoWords(simplifyText(text, {}, 'head'));
    return splitIntoWordsNltk(simplifyText(text, {}, 'fineweb-2024'));
  }

  /** Stage 1: writes the document's words to the kernel memory; returns its shingle count (0: no signature). */
  prepare(text: string): number {
    const base = this.#textOff;
    let words = -1;
    if (this.#fast !== undefined) {
      this.#ensure(base + 2 * text.length + 16);
      if (this.#starts.length < text.length + 2) this.#starts = new Int32Array(text.length + 1026);
      words = this.#fast.write(text, new Uint8Array(this.#k.memory.buffer, base, 2 * text.length + 16), this.#starts);
    }
    if (words < 0) words = this.#writeTokens(this.tokens(text));
    const end = base + (this.#starts[words] as number);
    const count = Math.max(0, words - this.cfg.n_grams + 1);
    // Slack after the text: sha1 reads whole blocks from a shingle's start.
    this.#startsOff = align(end + SHA1_SLACK);
    this.#hashOff = align(this.#startsOff + 4 * (words + 1));
    this.#ensure(this.#hashOff + 8 * count);
    new Int32Array(this.#k.memory.buffer, this.#startsOff, words + 1).set(this.#starts.subarray(0, words + 1));
    return count;
  }

  #writeTokens(tokens: readonly string[]): number {
    let need = 16;
    for (const t of tokens) need += t.length * 3 + 1;
    this.#ensure(this.#textOff + need);
    if (this.#starts.length < tokens.length + 1) this.#starts = new Int32Array(tokens.length + 1025);
    const buf = Buffer.from(this.#k.memory.buffer, this.#textOff, need);
    let off = 0;
    for (let i = 0; i < tokens.length; i++) {
      this.#starts[i] = off;
      off += buf.write(tokens[i] as string, off, 'utf8');
      buf[off++] = 0x20;
    }
    this.#starts[tokens.length] = off;
    return tokens.length;
  }

  /** Stage 2: hashes the `count` shingles of the last `prepare` (`" ".join(tokens[i:i+n])`, not deduplicated). */
  hash(count: number): void {
    if (count === 0) return;
    const { n_grams: n, precision } = this.cfg;
    if (this.cfg.hash_fc === 'sha1') {
      this.#k.sha1(count, this.#textOff, this.#startsOff, n, this.#hashOff, this.#scratchOff, precision === 32 ? 0xffffffffn : -1n);
    } else if (precision === 64) {
      this.#k.xxh64(count, this.#textOff, this.#startsOff, n, this.#hashOff);
    } else {
      const xxh = this.#xxh as XXHashAPI;
      const mem = this.#k.memory.buffer;
      const starts = new Int32Array(mem, this.#startsOff, count + n);
      const words = new Uint32Array(mem, this.#hashOff, count * 2);
      const text = new Uint8Array(mem, this.#textOff);
      for (let i = 0; i < count; i++) {
        words[2 * i] = xxh.h32Raw(text.subarray(starts[i] as number, (starts[i + n] as number) - 1), 0);
        words[2 * i + 1] = 0;
      }
    }
  }

  /** Stage 3: the signature of the last hashed shingles as 2 × numHashes u32 words (low, high), valid until the next call. */
  sign(count: number): Uint32Array {
    const k = this.#k;
    if (this.cfg.precision === 32) k.sig(count, this.#hashOff, 0, this.#outOff, this.#slots, 0xffffffffn);
    else {
      k.sigfast(count, this.#hashOff, 0, this.#outOff, this.#slots, -1n);
      const flag = new BigUint64Array(k.memory.buffer, this.#outOff + this.#slots * 8, 1)[0] as bigint;
      if (needsExact(flag)) k.sig(count, this.#hashOff, 0, this.#outOff, this.#slots, -1n);
    }
    return new Uint32Array(k.memory.buffer, this.#outOff, this.numHashes * 2);
  }

  /** The shingle hashes of a text, as BigInts (for tests and the reference implementation). */
  shingleHashes(text: string): bigint[] {
    const count = this.prepare(text);
    this.hash(count);
    return Array.from(new BigUint64Array(this.#k.memory.buffer, this.#hashOff, count));
  }

  /**
   * The signature of `text` as a view of `numHashes` u64 values (valid until the next call), or null when
   * the text has fewer than `n_grams` tokens (DataTrove writes no signature for such a document).
   */
  signature(text: string): BigUint64Array | null {
    const words = this.signatureWords(text);
    return words === null ? null : new BigUint64Array(words.buffer, words.byteOffset, this.numHashes);
  }

  /** The signature as 2 × numHashes u32 words (low, high), valid until the next call; null without shingles. */
  signatureWords(text: string): Uint32Array | null {
    const count = this.prepare(text);
    if (count === 0) return null;
    this.hash(count);
    return this.sign(count);
  }

  #ensure(bytes: number): void {
    const mem = this.#k.memory;
    if (mem.buffer.byteLength < bytes) mem.grow(Math.ceil((bytes - mem.buffer.byteLength) / PAGE));
  }
}
