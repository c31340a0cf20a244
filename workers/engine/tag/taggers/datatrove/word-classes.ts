// Per-word character tests of GopherQualityFilter over UTF-16 units, without a string per word or a regex per character.
import { PUNCTUATION_SET } from '../../../text/charsets.js';
import { isAlpha } from '../../../text/python.js';

/** PUNCTUATION_SET by BMP unit (1 = member); astral members apart. */
export const PUNCT_BMP = new Uint8Array(0x10000);
const PUNCT_ASTRAL = new Set<number>();
for (const ch of PUNCTUATION_SET) {
  const cp = ch.codePointAt(0) as number;
  if (cp > 0xffff) PUNCT_ASTRAL.add(cp);
  else PUNCT_BMP[cp] = 1;
}

/** `str.isalpha()` by BMP unit, filled on first sight (0 = not yet known, 1 = alphabetic, 2 = not). */
const ALPHA_BMP = new Uint8Array(0x10000);

const isHigh = (c: number) => (c & 0xfc00) === 0xd800;
const isLow = (c: number) => (c & 0xfc00) === 0xdc00;

/**
 * `all(ch in PUNCTUATION_SET for ch in word)` for the word chars[a, b) — true for the empty word. A lone surrogate
 * is its own character, as when Python iterates the string.
 */
export function isSymbolWord(chars: Uint16Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = chars[i] as number;
    if (isHigh(c) && i + 1 < b && isLow(chars[i + 1] as number)) {
      if (!PUNCT_ASTRAL.has(0x10000 + ((c - 0xd800) << 10) + ((chars[++i] as number) - 0xdc00))) return false;
    } else if (PUNCT_BMP[c] === 0) return false;
  }
  return true;
}

/** `any(ch.isalpha() for ch in word)` for the word chars[a, b). */
export function hasAlpha(chars: Uint16Array, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = chars[i] as number;
    if (c < 0x80) {
      if (((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) return true;
    } else if (isHigh(c) && i + 1 < b && isLow(chars[i + 1] as number)) {
      if (isAlpha(String.fromCharCode(c, chars[++i] as number))) return true;
    } else {
      let known = ALPHA_BMP[c] as number;
      if (known === 0) ALPHA_BMP[c] = known = isAlpha(String.fromCharCode(c)) ? 1 : 2;
      if (known === 1) return true;
    }
  }
  return false;
}
