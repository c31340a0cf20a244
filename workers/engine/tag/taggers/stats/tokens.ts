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
  for (const p of pieces) if (p.length > 0) n += countLinear(p);
  return n;
}

/** A GPT-2 pre-token this long (letters, digits or symbols with no whitespace) is counted in chunks. */
const LONG_RUN = /\p{L}{2000,}|\p{N}{2000,}|[^\s\p{L}\p{N}]{2000,}/gu;
const CHUNK = 1000;

/**
 * gpt-tokenizer's BPE is quadratic in one pre-token's length (100k emoji took a minute), so runs of
 * ≥ 2,000 characters without whitespace are counted in 1,000-code-point chunks. Ordinary text is
 * counted exactly; such runs can differ from HF's count by about one token per chunk.
 */
function countLinear(text: string): number {
  let n = 0;
  let last = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    if (m.index > last) n += counter()(text.slice(last, m.index));
    const cps = Array.from(m[0]);
    for (let i = 0; i < cps.length; i += CHUNK) n += counter()(cps.slice(i, i + CHUNK).join(''));
    last = m.index + m[0].length;
  }
  if (last < text.length) n += counter()(last === 0 ? text : text.slice(last));
  return n;
}

/** DataTrove `TokenStats.extract_stats`: `metadata.token_count` when present, else the gpt2 count. */
export function tokenStats(text: string, metadata: Record<string, unknown>): DocStatValues {
  const known = metadata.token_count;
  const value = typeof known === 'number' ? (Number.isInteger(known) ? pyInt(known) : pyFloat(known)) : pyInt(gpt2TokenCount(text));
  return new Map([['token_count', value]]);
}
