// Dolma's deduper words (src/wimbd/tokens.rs): UAX#29 word-bound segments holding a non-whitespace char.

// ICU's word segmenter stands in for Rust's unicode-segmentation (both implement UAX#29).
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** Rust `char::is_whitespace` (Unicode White_Space) — unlike JS `\s`, it has U+0085 and lacks U+FEFF. */
const RUST_WS = '\\t\\n\\x0b\\x0c\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const HAS_NON_WS = new RegExp(`[^${RUST_WS}]`);
const ALL_WS = new RegExp(`^[${RUST_WS}]*$`);

export function dedupeWords(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return asciiWords(text);
  const out: string[] = [];
  for (const { segment } of segmenter.segment(text)) if (HAS_NON_WS.test(segment)) out.push(segment);
  return out;
}

export function countWords(text: string): number {
  let n = 0;
  for (const { segment } of segmenter.segment(text)) if (HAS_NON_WS.test(segment)) n++;
  return n;
}

/** Rust `s.trim() == ""`. */
export const isBlank = (s: string): boolean => ALL_WS.test(s);

const PRINTABLE_ASCII = /^[\t\x20-\x7e]*$/;
// UAX#29 word-break classes of printable ASCII: letter, digit, `_`, MidLetter `:`, MidNumLet(Q) `.` `'`, MidNum `,` `;`, space, other.
const enum C { L, N, E, ML, MNL, MN, S, O }
const ASCII_CLASS = new Uint8Array(128).fill(C.O);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z]/.test(ch)) ASCII_CLASS[c] = C.L;
  else if (/[0-9]/.test(ch)) ASCII_CLASS[c] = C.N;
}
ASCII_CLASS[0x5f] = C.E;
ASCII_CLASS[0x3a] = C.ML;
ASCII_CLASS[0x2e] = ASCII_CLASS[0x27] = C.MNL;
ASCII_CLASS[0x2c] = ASCII_CLASS[0x3b] = C.MN;
ASCII_CLASS[0x20] = ASCII_CLASS[0x09] = C.S;

/**
 * The same segments as the ICU segmenter for printable ASCII (checked against it in words.test.ts),
 * ten times faster: rules WB5–WB13b join letters, digits and `_`, and a mid character between two
 * letters (`:` `.` `'`) or two digits (`,` `;` `.` `'`); everything else is a one-char segment.
 */
function asciiWords(s: string): string[] {
  const out: string[] = [];
  const cls = (i: number): number => (i < s.length ? (ASCII_CLASS[s.charCodeAt(i)] as number) : C.O);
  let i = 0;
  while (i < s.length) {
    const c = cls(i);
    if (c === C.S) {
      i++;
      continue;
    }
    let j = i + 1;
    if (c <= C.E) {
      for (;;) {
        const cj = cls(j);
        if (j < s.length && cj <= C.E) {
          j++;
          continue;
        }
        const prev = cls(j - 1);
        const next = cls(j + 1);
        const joinLetters = prev === C.L && (cj === C.ML || cj === C.MNL) && next === C.L;
        const joinDigits = prev === C.N && (cj === C.MN || cj === C.MNL) && next === C.N;
        if (j + 1 < s.length && (joinLetters || joinDigits)) {
          j += 2;
          continue;
        }
        break;
      }
    }
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}
