// The built-in GPT-2 tokenizer (r50k_base): ranks shipped in the gpt-tokenizer package, run on Assay's byte-level BPE.
import { createHash } from 'node:crypto';
import type * as R50kBase from 'gpt-tokenizer/bpeRanks/r50k_base';
import { importModule } from '../../import-module.js';
import { BpeModel } from './bpe.js';
import { BYTE_TO_CHAR } from './bytes.js';
import { ByteLevelBpeTokenizer } from './byte-level.js';
import type { TextTokenizer } from './types.js';

export const GPT2_NAMES = ['gpt2', 'r50k_base'] as const;
const END_OF_TEXT = { id: 50256, content: '<|endoftext|>', special: true, normalized: false, lstrip: false, rstrip: false };

let cached: BpeModel | undefined;
let digest: string | undefined;

/**
 * sha256 of the built-in ranks (each token's bytes, length-prefixed, in rank order): identifies the table
 * the way a tokenizer.json's file hash does, since the bundled CLI has no ranks file on disk to hash.
 */
export async function gpt2Sha256(): Promise<string> {
  if (digest === undefined) {
    const ranks = (await importModule<typeof R50kBase>('gpt-tokenizer/bpeRanks/r50k_base')).default;
    const h = createHash('sha256');
    const len = Buffer.alloc(4);
    for (const token of ranks) {
      const bytes = typeof token === 'string' ? Buffer.from(token, 'utf8') : Buffer.from(token);
      len.writeUInt32LE(bytes.length);
      h.update(len).update(bytes);
    }
    digest = h.digest('hex');
  }
  return digest;
}

/**
 * tiktoken's r50k_base = HF's `gpt2` tokenizer.json: GPT-2's regex, no normalizer, `<|endoftext|>`
 * = 50256. Ranks are tiktoken's (a pair merges with the rank of the token it forms, a whole
 * pre-token in the vocabulary is one token), so ids match tiktoken and gpt-tokenizer.
 */
export async function loadGpt2(name: string, opts: { encodeSpecialTokens?: boolean } = {}): Promise<TextTokenizer> {
  if (cached === undefined) {
    const ranks = (await importModule<typeof R50kBase>('gpt-tokenizer/bpeRanks/r50k_base')).default;
    const vocab = new Map<string, number>();
    ranks.forEach((token, rank) => {
      const bytes = typeof token === 'string' ? Buffer.from(token, 'utf8') : token;
      let s = '';
      for (const b of bytes) s += BYTE_TO_CHAR[b] as string;
      vocab.set(s, rank);
    });
    cached = new BpeModel({ vocab, merges: 'concatenation', ignoreMerges: true, source: 'gpt-tokenizer/bpeRanks/r50k_base' });
  }
  return new ByteLevelBpeTokenizer({
    name,
    model: cached,
    added: [END_OF_TEXT],
    normalize: null,
    preTokenizer: { kind: 'gpt2', addPrefixSpace: false, useRegex: true },
    encodeSpecialTokens: opts.encodeSpecialTokens ?? false,
    hasPrefixSpace: false,
  });
}
