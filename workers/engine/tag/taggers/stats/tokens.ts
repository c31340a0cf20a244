// TokenStats: the GPT-2 token count of a document (gpt-tokenizer's r50k_base, the same BPE as HF `gpt2`).
import { createRequire } from 'node:module';
import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/r50k_base';
import { pyInt, pyFloat, type DocStatValues } from '../../../stats/types.js';

const require = createRequire(import.meta.url);
const EOT = '<|endoftext|>';
let count: typeof CountTokens | undefined;

/** Loaded on first use (about 125 ms): listing the registry should not pay for the BPE ranks. */
function counter(): typeof CountTokens {
  count ??= (require('gpt-tokenizer/encoding/r50k_base') as { countTokens: typeof CountTokens }).countTokens;
  return count;
}

/**
 * `len(tokenizer.encode(text).tokens)` with HF's gpt2 tokenizer.json. HF matches the added token
 * `<|endoftext|>` anywhere in the text; gpt-tokenizer 4.0.0 only finds an allowed special token at
 * the very start, so the text is cut at each occurrence and every piece counted on its own.
 */
export function gpt2TokenCount(text: string): number {
  const pieces = text.split(EOT);
  let n = pieces.length - 1;
  for (const p of pieces) if (p.length > 0) n += counter()(p);
  return n;
}

/** DataTrove `TokenStats.extract_stats`: `metadata.token_count` when present, else the gpt2 count. */
export function tokenStats(text: string, metadata: Record<string, unknown>): DocStatValues {
  const known = metadata.token_count;
  const value = typeof known === 'number' ? (Number.isInteger(known) ? pyInt(known) : pyFloat(known)) : pyInt(gpt2TokenCount(text));
  return new Map([['token_count', value]]);
}
