// Per-document text measures stored in the index: UTF-8 bytes, code points, trimmed bytes, a token estimate.
import { isRustWhitespace } from '../../mix/json.js';
import { codePointLength } from '../../mix/spans.js';

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
 * Trimmed bytes from a scan of both ends, without building the trimmed string as `rustTrim` +
 * `utf8Length` would; this runs once per document at index time (equivalence is tested).
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
