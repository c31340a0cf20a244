// Load a Hugging Face tokenizer.json: byte-level BPE runs on Assay's own BPE; anything else on @huggingface/tokenizers.
import { readFile } from 'node:fs/promises';
import type * as HfTokenizers from '@huggingface/tokenizers';
import type { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { AssayError } from '../../errors.js';
import { importModule } from '../../import-module.js';
import { BpeModel } from './bpe.js';
import { ByteLevelBpeTokenizer, type PreTokenizerSpec } from './byte-level.js';
import { configHasPrefixSpace, type AddedTokenSpec, type TextTokenizer } from './types.js';

interface TokenizerJson {
  added_tokens?: Partial<AddedTokenSpec>[];
  normalizer?: unknown;
  pre_tokenizer?: { type?: string; add_prefix_space?: boolean; use_regex?: boolean; pretokenizers?: { type?: string; use_regex?: boolean }[] } | null;
  decoder?: { type?: string } | null;
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    merges?: (string | string[])[];
    dropout?: number | null;
    continuing_subword_prefix?: string | null;
    end_of_word_suffix?: string | null;
    byte_fallback?: boolean;
    ignore_merges?: boolean;
  };
}

export interface LoadOptions {
  encodeSpecialTokens?: boolean;
}

export async function loadTokenizerJson(path: string, opts: LoadOptions = {}): Promise<TextTokenizer> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('IO', `cannot read the tokenizer: ${(e as Error).message}`, { file: path, field: 'tokenizer.name_or_path' });
  }
  let json: TokenizerJson;
  try {
    json = JSON.parse(text) as TokenizerJson;
  } catch (e) {
    throw new AssayError('CONFIG', `not a tokenizer.json (invalid JSON: ${(e as Error).message})`, { file: path });
  }
  if (json === null || typeof json !== 'object' || typeof json.model !== 'object') throw new AssayError('CONFIG', 'not a tokenizer.json (no `model`)', { file: path });
  const { Tokenizer } = await importModule<typeof HfTokenizers>('@huggingface/tokenizers');
  const fast = isPlainByteLevelBpe(json);
  let hf: HfTokenizer;
  try {
    // Assay's BPE only borrows the normalizer and pre-tokenizer, so the JS model is built empty.
    hf = new Tokenizer(fast ? { ...json, added_tokens: [], model: { type: 'BPE', vocab: {}, merges: [] } } : json, {});
  } catch (e) {
    throw new AssayError('CONFIG', `unsupported tokenizer.json: ${(e as Error).message}`, { file: path });
  }
  const added = (json.added_tokens ?? []).map(toAddedSpec);
  const pre = fast ? byteLevelPreTokenizer(json, hf) : null;
  if (pre === null) return new HfJsTokenizer(path, fast ? new Tokenizer(json, {}) : hf, json, opts, path);
  const m = json.model ?? {};
  const model = new BpeModel({ vocab: new Map(Object.entries(m.vocab ?? {})), merges: m.merges ?? [], ignoreMerges: m.ignore_merges === true, source: path });
  const normalizer = hf.normalizer;
  return new ByteLevelBpeTokenizer({
    name: path,
    model,
    added,
    normalize: normalizer === null ? null : (s) => normalizer.normalize(s),
    preTokenizer: pre,
    encodeSpecialTokens: opts.encodeSpecialTokens ?? false,
    hasPrefixSpace: configHasPrefixSpace(json),
  });
}

function toAddedSpec(t: Partial<AddedTokenSpec>): AddedTokenSpec {
  return { id: Number(t.id), content: String(t.content ?? ''), special: t.special === true, normalized: t.normalized !== false, lstrip: t.lstrip === true, rstrip: t.rstrip === true };
}

/**
 * Whether Assay's byte-level BPE can run this file exactly: a plain BPE (no dropout, word affixes
 * or byte fallback) whose pre-tokenizer ends in ByteLevel and whose decoder is ByteLevel.
 */
function isPlainByteLevelBpe(json: TokenizerJson): boolean {
  const m = json.model ?? {};
  if (m.type !== 'BPE' || (m.dropout ?? null) !== null || m.continuing_subword_prefix || m.end_of_word_suffix || m.byte_fallback) return false;
  const pre = json.pre_tokenizer;
  const last = pre?.type === 'Sequence' ? pre.pretokenizers?.at(-1) : pre;
  return json.decoder?.type === 'ByteLevel' && last?.type === 'ByteLevel';
}

/**
 * GPT-2's own regex runs natively; other splits (e.g. a cl100k-style `Split` before a regex-free
 * ByteLevel) go through @huggingface/tokenizers' translation of the Oniguruma pattern.
 */
function byteLevelPreTokenizer(json: TokenizerJson, hf: HfTokenizer): PreTokenizerSpec | null {
  const pre = json.pre_tokenizer;
  if (pre?.type === 'ByteLevel') return { kind: 'gpt2', addPrefixSpace: pre.add_prefix_space === true, useRegex: pre.use_regex !== false };
  const last = pre?.type === 'Sequence' ? pre.pretokenizers?.at(-1) : undefined;
  const hfPre = hf.pre_tokenizer;
  if (last?.type !== 'ByteLevel' || hfPre === null) return null;
  return { kind: 'byte-level-strings', split: (s) => hfPre.pre_tokenize(s) };
}

/** Unigram, WordPiece, sentencepiece-style BPE…: @huggingface/tokenizers end to end (slower, same ids). */
class HfJsTokenizer implements TextTokenizer {
  readonly engine = 'huggingface';
  readonly vocabSize: number;
  readonly hasPrefixSpace: boolean;

  constructor(
    readonly name: string,
    private readonly hf: HfTokenizer,
    json: TokenizerJson,
    opts: LoadOptions,
    file: string,
  ) {
    if (opts.encodeSpecialTokens) {
      throw new AssayError('CONFIG', 'encode_special_tokens is supported for byte-level BPE tokenizers only', { file, field: 'tokenizer.encode_special_tokens' });
    }
    let max = -1;
    for (const id of hf.get_vocab(true).values()) max = Math.max(max, id);
    this.vocabSize = max + 1;
    this.hasPrefixSpace = configHasPrefixSpace(json);
  }

  encode(text: string): number[] {
    return this.hf.encode(text, { add_special_tokens: false }).ids;
  }

  decode(ids: readonly number[]): string {
    if (ids.length === 0) return '';
    return this.hf.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false });
  }

  tokenToId(token: string): number | undefined {
    return this.hf.token_to_id(token);
  }
}
