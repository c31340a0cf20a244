// Python text primitives Dolma's built-in taggers share: split_paragraphs, whitespace classes, code-point counts.
import type { TaggerOutput } from '../../types.js';

/** A slice of the document in UTF-16 offsets, end exclusive. */
export interface Slice {
  start: number;
  end: number;
}

/**
 * `str.isspace()` for one UTF-16 unit: what Python `re`'s `\s`, `strip()` and `split()` use.
 * Every such character is in the BMP, so testing units (not code points) is exact.
 */
export function isPyWs(c: number): boolean {
  if (c < 0x80) return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20);
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * The `regex` package's `\s` (Unicode White_Space), used by the taggers that import `regex` rather
 * than `re` (whitespace_tokenizer_v1, not_alphanum_paragraph_v1): unlike `isspace()` it excludes
 * the separators U+001C–U+001F.
 */
export function isUniWs(c: number): boolean {
  return c < 0x80 ? (c >= 9 && c <= 13) || c === 0x20 : isPyWs(c);
}

/**
 * Dolma `split_paragraphs` (`core/utils.py`): matches of `([^\n]*\n|[^\n]+$)`, each paragraph
 * keeping its `\n`; with `removeEmpty`, paragraphs whose `strip()` is empty are dropped.
 */
export function splitParagraphs(text: string, removeEmpty = true): Slice[] {
  const out: Slice[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl + 1;
    if (!removeEmpty || !isBlank(text, start, end)) out.push({ start, end });
    start = end;
  }
  return out;
}

/** `text[start:end].strip() == ""`. */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isPyWs(text.charCodeAt(i))) return false;
  return true;
}

/** `len(text[start:end])` in code points (a lone surrogate counts as one, as in Python). */
export function cpCount(text: string, start = 0, end = text.length): number {
  let n = end - start;
  for (let i = start; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Code points of a text, plus the UTF-16 offset of each (null when the two coincide). */
export interface CodePoints {
  cps: Int32Array;
  /** `units[i]` = UTF-16 offset of code point `i`; length `cps.length + 1`. */
  units: Int32Array | null;
}

export function toCodePoints(text: string): CodePoints {
  const n = cpCount(text);
  const cps = new Int32Array(n);
  if (n === text.length) {
    for (let i = 0; i < n; i++) cps[i] = text.charCodeAt(i);
    return { cps, units: null };
  }
  const units = new Int32Array(n + 1);
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    units[j] = i;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cps[j++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    cps[j++] = c;
  }
  units[n] = text.length;
  return { cps, units };
}

export const docOutput = (type: string, description: string, range: string): TaggerOutput => ({
  type,
  description,
  range,
  level: 'document',
});

export const spanOutput = (type: string, description: string, range: string): TaggerOutput => ({
  type,
  description,
  range,
  level: 'spans',
});
