// DataTrove's character sets (utils/text.py, datatrove-spec §2.1): PUNCTUATION, TERMINAL_PUNCTUATION and their union.

/** The printable part of DataTrove's ordered PUNCTUATION string (fullwidth `１` included, as upstream). */
const PUNCTUATION_PRINTABLE =
  '!/—”:％１〈&(、━\\【#%「」，】；+^]~“《„\';’{|∶´[=-`*．（–？！：$～«〉,><》)?）。…@_."}►»';

/** Control characters upstream appends: 0–8, 11–12, 13–31, 127–159 (tab and LF excluded, CR included). */
function controlRanges(): string {
  let s = '';
  for (const [a, b] of [
    [0, 9],
    [11, 13],
    [13, 32],
    [127, 160],
  ] as const) {
    for (let x = a; x < b; x++) s += String.fromCharCode(x);
  }
  return s;
}

/** DataTrove `PUNCTUATION` (129 characters, upstream order). */
export const PUNCTUATION: string = PUNCTUATION_PRINTABLE + controlRanges();

/** DataTrove `TERMINAL_PUNCTUATION` (159 sentence-final marks; no `'`, `"`, `…` or `;`). */
export const TERMINAL_PUNCTUATION_CODEPOINTS: readonly number[] = [
  0x0021, 0x002e, 0x003f, 0x0589, 0x061d, 0x061e, 0x061f, 0x06d4, 0x0700, 0x0701, 0x0702, 0x07f9, 0x0837, 0x0839,
  0x083d, 0x083e, 0x0964, 0x0965, 0x104a, 0x104b, 0x1362, 0x1367, 0x1368, 0x166e, 0x1735, 0x1736, 0x17d4, 0x17d5,
  0x17d6, 0x17d9, 0x17da, 0x1803, 0x1809, 0x1944, 0x1945, 0x1aa8, 0x1aa9, 0x1aaa, 0x1aab, 0x1b5a, 0x1b5b, 0x1b5e,
  0x1b5f, 0x1b7d, 0x1b7e, 0x1c3b, 0x1c3c, 0x1c7e, 0x1c7f, 0x203c, 0x203d, 0x2047, 0x2048, 0x2049, 0x2e2e, 0x2e3c,
  0x2e53, 0x2e54, 0x3002, 0xa4ff, 0xa60e, 0xa60f, 0xa6f3, 0xa6f7, 0xa876, 0xa877, 0xa8ce, 0xa8cf, 0xa92f, 0xa9c8,
  0xa9c9, 0xaa5d, 0xaa5e, 0xaa5f, 0xaaf0, 0xaaf1, 0xabeb, 0xfe52, 0xfe56, 0xfe57, 0xff01, 0xff0e, 0xff1f, 0xff61,
  0x10a56, 0x10a57, 0x10f55, 0x10f56, 0x10f57, 0x10f58, 0x10f59, 0x10f86, 0x10f87, 0x10f88, 0x10f89, 0x11047,
  0x11048, 0x110be, 0x110bf, 0x110c0, 0x110c1, 0x11141, 0x11142, 0x11143, 0x111c5, 0x111c6, 0x111cd, 0x111de,
  0x111df, 0x11238, 0x11239, 0x1123b, 0x1123c, 0x112a9, 0x1144b, 0x1144c, 0x115c2, 0x115c3, 0x115c9, 0x115ca,
  0x115cb, 0x115cc, 0x115cd, 0x115ce, 0x115cf, 0x115d0, 0x115d1, 0x115d2, 0x115d3, 0x115d4, 0x115d5, 0x115d6,
  0x115d7, 0x11641, 0x11642, 0x1173c, 0x1173d, 0x1173e, 0x11944, 0x11946, 0x11a42, 0x11a43, 0x11a9b, 0x11a9c,
  0x11c41, 0x11c42, 0x11ef7, 0x11ef8, 0x11f43, 0x11f44, 0x16a6e, 0x16a6f, 0x16af5, 0x16b37, 0x16b38, 0x16b44,
  0x16e98, 0x1bc9f, 0x1da88,
];

/** TERMINAL_PUNCTUATION as single-code-point strings (what `str.endswith(tuple(...))` tests). */
export const TERMINAL_PUNCTUATION: ReadonlySet<string> = new Set(
  TERMINAL_PUNCTUATION_CODEPOINTS.map((cp) => String.fromCodePoint(cp)),
);

/** `PUNCTUATION_SET = set(PUNCTUATION) | TERMINAL_PUNCTUATION` (281 distinct characters). */
export const PUNCTUATION_SET: ReadonlySet<string> = new Set([...PUNCTUATION, ...TERMINAL_PUNCTUATION]);

/** Characters of PUNCTUATION (not TERMINAL), which `simplify_text` turns into spaces (HEAD) or deletes (v0.2.0). */
export const PUNCTUATION_CHARS: ReadonlySet<string> = new Set(PUNCTUATION);

/** True when the last code point of `s` is a TERMINAL_PUNCTUATION mark (`s.endswith(tuple(TERMINAL_PUNCTUATION))`). */
export function endsWithTerminalPunctuation(s: string): boolean {
  if (s.length === 0) return false;
  const last = s.codePointAt(s.length - 1) ?? 0;
  // A trailing low surrogate belongs to an astral mark when a high surrogate precedes it.
  if (last >= 0xdc00 && last <= 0xdfff && s.length >= 2) {
    const cp = s.codePointAt(s.length - 2) ?? 0;
    if (cp > 0xffff) return TERMINAL_PUNCTUATION.has(String.fromCodePoint(cp));
  }
  return TERMINAL_PUNCTUATION.has(String.fromCodePoint(last));
}
