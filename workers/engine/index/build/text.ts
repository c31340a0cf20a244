// Per-document text measures stored in the index: UTF-8 bytes, code points, trimmed bytes, a token estimate.
import { codePointLength } from '../../mix/spans.js';

/** Rust's `char::is_whitespace` (Unicode White_Space), the set the mixer's `rustTrim` removes. */
export function isRustWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** UTF-8 bytes of one BMP whitespace character (all of Rust's are BMP). */
const wsBytes = (c: number): number => (c < 0x80 ? 1 : c < 0x800 ? 2 : 3);

export interface TextMeasures {
  bytes: number;
  chars: number;
  /** UTF-8 bytes of the text after Rust's `trim()` (what `min_text_length` compares). */
  trimmed: number;
  tokens: number;
}

/**
 * A linear scan from both ends instead of `rustTrim` + `utf8Length`: the regex form backtracks over
 * long inner whitespace runs, and this runs once per document at index time (equivalence is tested).
 */
export function measureText(text: string): TextMeasures {
  const bytes = Buffer.byteLength(text, 'utf8');
  let lead = 0;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isRustWhitespace(c)) break;
    lead += wsBytes(c);
  }
  let trail = 0;
  if (i < text.length) {
    for (let j = text.length - 1; j > i; j--) {
      const c = text.charCodeAt(j);
      if (!isRustWhitespace(c)) break;
      trail += wsBytes(c);
    }
  }
  return { bytes, chars: codePointLength(text), trimmed: bytes - lead - trail, tokens: estimateTokens(bytes) };
}

/** GPT-style BPE averages about 4 UTF-8 bytes per token on English web text; an estimate, not a count. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}
