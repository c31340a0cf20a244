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

/** Runs of at least this many UTF-16 units are counted in chunks; shorter ones (all of ordinary text) exactly. */
const LONG_RUN = 256;
/** Chunk length in UTF-16 units (even, so `\n\n` pairs stay whole; a surrogate pair is never cut). */
const CHUNK = 128;
const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/** GPT-2 pre-token classes: letters, digits, whitespace, anything else. */
const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;
const OTHER = 4;
/** Class of each BMP code unit, filled on first sight (0 = not looked up yet). */
const BMP = new Uint8Array(0x10000);

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return /\p{L}/u.test(ch) ? LETTER : /\p{N}/u.test(ch) ? DIGIT : /\s/u.test(ch) ? SPACE : OTHER;
}

function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (isHighSurrogate(c)) {
    const cp = text.codePointAt(i) as number;
    return cp > 0xffff ? classify(cp) : OTHER;
  }
  let k = BMP[c] as number;
  if (k === 0) k = BMP[c] = classify(c);
  return k;
}

/**
 * gpt-tokenizer's BPE is quadratic in one pre-token's length (100k emoji took a minute, 1 MB of
 * newlines over two), so maximal runs of ≥ 256 units of one class (letters, digits, whitespace or
 * other symbols) are counted in 128-unit chunks, which keeps each BPE call bounded and the whole
 * count linear. Ordinary text is counted exactly; such runs can differ from HF's count by about
 * one token per chunk. A long whitespace run keeps its last character with what follows, as
 * GPT-2's `\s+(?!\S)` pre-tokenization does. The scan is one pass without allocation.
 */
function countLinear(text: string): number {
  let n = 0;
  let last = 0; // start of the text not counted yet
  let runStart = 0;
  let runClass = 0;
  const endRun = (runEnd: number): void => {
    if (runEnd - runStart < LONG_RUN) return;
    let end = runEnd;
    if (runClass === SPACE && end < text.length) end--;
    if (runStart > last) n += counter()(text.slice(last, runStart));
    for (let i = runStart; i < end; ) {
      let j = Math.min(i + CHUNK, end);
      if (j < end && isHighSurrogate(text.charCodeAt(j - 1))) j++;
      n += counter()(text.slice(i, j));
      i = j;
    }
    last = end;
  };
  for (let i = 0; i < text.length; i++) {
    const k = classAt(text, i);
    if (k !== runClass) {
      endRun(i);
      runStart = i;
      runClass = k;
    }
    if (isHighSurrogate(text.charCodeAt(i)) && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++; // a pair is one code point
  }
  endRun(text.length);
  if (last < text.length) n += counter()(last === 0 ? text : text.slice(last));
  return n;
}

/** DataTrove `TokenStats.extract_stats`: `metadata.token_count` when present, else the gpt2 count. */
export function tokenStats(text: string, metadata: Record<string, unknown>): DocStatValues {
  const known = metadata.token_count;
  const value = typeof known === 'number' ? (Number.isInteger(known) ? pyInt(known) : pyFloat(known)) : pyInt(gpt2TokenCount(text));
  return new Map([['token_count', value]]);
}
