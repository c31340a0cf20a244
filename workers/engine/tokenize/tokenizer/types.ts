// What the tokenize stage needs from a tokenizer, whichever engine implements it.

export interface TextTokenizer {
  /** The name or path it was loaded from (for summaries and errors). */
  readonly name: string;
  /** 'byte-level-bpe' (Assay's own BPE on the file's tables) or 'huggingface' (@huggingface/tokenizers). */
  readonly engine: 'byte-level-bpe' | 'huggingface';
  /** Largest id + 1 over the vocabulary and added tokens: what the output dtype must hold. */
  readonly vocabSize: number;
  /** Dolma's `tokenizer_has_prefix`: the pre-tokenizer or normalizer adds a leading space. */
  readonly hasPrefixSpace: boolean;
  /** Token ids of `text`, without adding BOS/EOS (Rust `encode(text, add_special_tokens=False)`). */
  encode(text: string): number[];
  /** Text of `ids`, special tokens included, no clean-up of spaces. */
  decode(ids: readonly number[]): string;
  /** Id of a token string (vocabulary or added token). */
  tokenToId(token: string): number | undefined;
}

/** One entry of a tokenizer.json `added_tokens` list. */
export interface AddedTokenSpec {
  id: number;
  content: string;
  special: boolean;
  normalized: boolean;
  lstrip: boolean;
  rstrip: boolean;
}

/** Dolma's `np.min_scalar_type(vocab_size - 1)` for unsigned ids. */
export function requiredDtype(vocabSize: number): 'uint8' | 'uint16' | 'uint32' {
  if (vocabSize <= 0x100) return 'uint8';
  if (vocabSize <= 0x10000) return 'uint16';
  return 'uint32';
}

/** Dolma's `tokenizer_has_prefix` (tokenizer/tokenizer.py): `add_prefix_space` in a pre-tokenizer, or a `Prepend` normalizer. */
export function configHasPrefixSpace(json: { pre_tokenizer?: unknown; normalizer?: unknown }): boolean {
  const pre = (json.pre_tokenizer ?? {}) as { type?: string; add_prefix_space?: boolean; pretokenizers?: { add_prefix_space?: boolean }[] };
  if (pre.type === 'Sequence' ? (pre.pretokenizers ?? []).some((p) => p.add_prefix_space === true) : pre.add_prefix_space === true) return true;
  const norm = (json.normalizer ?? {}) as { type?: string; normalizers?: { type?: string }[] };
  return norm.type === 'Sequence' ? (norm.normalizers ?? []).some((n) => n.type === 'Prepend') : norm.type === 'Prepend';
}
