// spaCy's prefix / suffix / infix rules (lang/punctuation.py, lang/en/punctuation.py), evaluated by hand in O(1) per call.
import {
  ALPHA,
  ALPHA_LOWER,
  ALPHA_UPPER,
  CodePointSet,
  ICONS,
  LIST_CURRENCY,
  LIST_HYPHENS,
  LIST_PUNCT,
  LIST_QUOTES,
  LIST_UNITS,
  PUNCT_CLASS_CHARS,
  QUOTE_CHARS,
} from './char-classes.js';

const cpSet = (chars: string[]): CodePointSet =>
  new CodePointSet(chars.map((c) => [c.codePointAt(0) ?? 0, c.codePointAt(0) ?? 0] as [number, number]));
const singles = (list: string[]): string[] => list.filter((w) => [...w].length === 1);

/** Single-code-point prefixes: `§ % = — –`, LIST_PUNCT, `…`, LIST_QUOTES, one-character currencies (ICONS separately). */
const PREFIX_SINGLE = cpSet(['§', '%', '=', '—', '–', ...singles(LIST_PUNCT), '…', ...LIST_QUOTES, ...singles(LIST_CURRENCY)]);
/** Single-code-point suffixes with no lookbehind: LIST_PUNCT, `…`, LIST_QUOTES, `— –` (ICONS separately). */
const SUFFIX_SINGLE = cpSet([...singles(LIST_PUNCT), '…', ...LIST_QUOTES, '—', '–']);
const SUFFIX_MULTI = new Set(['……', "'s", "'S", '’s', '’S']);
const CURRENCY = new Set(LIST_CURRENCY);
const UNITS = new Set(LIST_UNITS);
const AFTER_DIGIT_SINGLE = cpSet([...singles(LIST_CURRENCY), ...singles(LIST_UNITS), '+']);
/** Last characters of the multi-character suffixes: any other final character rules them all out at once. */
const MULTI_LAST = cpSet([...SUFFIX_MULTI, ...CURRENCY, ...UNITS].filter((w) => [...w].length > 1).map((w) => [...w].pop() as string));
/** Longest fixed suffix alternative, in code points (`اكواب`). */
const MAX_FIXED_SUFFIX = Math.max(...[...SUFFIX_MULTI, ...CURRENCY, ...UNITS].map((w) => [...w].length));
/** Lookbehind class of `(?<=[0-9{al}%²\-\+{PUNCT}(?:{QUOTES})])\.` (markUnits lists it again, as ranges). */
const DOT_AFTER = (cp: number): boolean =>
  (cp >= 0x30 && cp <= 0x39) ||
  ALPHA_LOWER.has(cp) ||
  cp === 0x25 || cp === 0xb2 || cp === 0x2d || cp === 0x2b ||
  PUNCT_CLASS_CHARS.has(cp) ||
  cp === 0x28 || cp === 0x3f || cp === 0x3a || cp === 0x29 ||
  QUOTE_CHARS.has(cp);

const isDigit = (cp: number): boolean => cp >= 0x30 && cp <= 0x39;
const cpAt = (s: string, i: number): number => s.codePointAt(i) ?? 0;
const cpLen = (cp: number): number => (cp > 0xffff ? 2 : 1);
/** Code point ending just before index i (a lone low surrogate counts as itself). */
function cpBefore(s: string, i: number): number {
  const c = s.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = s.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return ((h - 0xd800) << 10) + (c - 0xdc00) + 0x10000;
  }
  return c;
}

/** `prefix_search(s[lo:hi])` match length in UTF-16 units (alternatives tried in upstream order at position 0). */
export function findPrefix(s: string, lo: number, hi: number): number {
  if (lo >= hi) return 0;
  const c = cpAt(s, lo);
  if (PREFIX_SINGLE.has(c)) return cpLen(c);
  if (c === 0x2b) return lo + 1 < hi && isDigit(s.charCodeAt(lo + 1)) ? 0 : 1;
  if (c === 0x2e) {
    let j = lo;
    while (j < hi && s.charCodeAt(j) === 0x2e) j++;
    if (j - lo >= 2) return j - lo;
  }
  if (s.startsWith('US$', lo) && lo + 3 <= hi) return 3;
  if ((s.startsWith('C$', lo) || s.startsWith('A$', lo)) && lo + 2 <= hi) return 2;
  if (ICONS.has(c)) return cpLen(c);
  return 0;
}

/** Whether some suffix alternative matches exactly s[p:hi]; lookbehinds may not look before lo. */
function suffixAt(s: string, lo: number, p: number, hi: number, n: number): boolean {
  const prev = p > lo ? cpBefore(s, p) : -1;
  const prevDigit = prev >= 0 && isDigit(prev);
  if (n === 1) {
    const c = cpAt(s, p);
    if (SUFFIX_SINGLE.has(c) || ICONS.has(c)) return true;
    if (prevDigit && AFTER_DIGIT_SINGLE.has(c)) return true;
    if (c !== 0x2e || prev < 0) return false;
    if (DOT_AFTER(prev)) return true;
    const p2 = p - cpLen(prev);
    if (p2 <= lo) return false;
    const prev2 = cpBefore(s, p2);
    if (prev2 === 0xb0 && 'FfCcKk'.includes(String.fromCodePoint(prev))) return true;
    return ALPHA_UPPER.has(prev) && ALPHA_UPPER.has(prev2);
  }
  const t = s.slice(p, hi);
  if (SUFFIX_MULTI.has(t)) return true;
  return prevDigit && (CURRENCY.has(t) || UNITS.has(t));
}

/** `suffix_search(s[lo:hi])` match length in UTF-16 units: the leftmost start at which some `…$` alternative matches. */
export function findSuffix(s: string, lo: number, hi: number): number {
  if (lo >= hi) return 0;
  let d = hi;
  while (d > lo && s.charCodeAt(d - 1) === 0x2e) d--;
  if (hi - d >= 2) return hi - d; // `\.\.+$` starts at the first dot of the final run; nothing starts earlier
  const lastCp = cpBefore(s, hi);
  // Walk back over the candidate starts (at most MAX_FIXED_SUFFIX code points); only the last is needed when no
  // multi-character suffix can end with this character.
  let p = hi - cpLen(lastCp);
  let n = 1;
  if (MULTI_LAST.has(lastCp)) {
    while (p > lo && n < MAX_FIXED_SUFFIX) {
      p -= cpLen(cpBefore(s, p));
      n++;
    }
  }
  for (; n >= 1; n--) {
    if (suffixAt(s, lo, p, hi, n)) return hi - p;
    p += cpLen(cpAt(s, p));
  }
  return 0;
}

/** The tables native/spacy-general.c repeats these rules from (spacyScanner's last four arguments). */
export interface GeneralPathData {
  /** BMP bitmaps, in spacy-general.c's bit order. */
  tables: Uint8Array[];
  /** [English (1) or not, MAX_FIXED_SUFFIX, the special-case matcher's longest text]. */
  params: Int32Array;
  /** SUFFIX_MULTI, the multi-character currencies and units (BMP ones: no astral entry can end a BMP chunk), LIST_HYPHENS in order. */
  lists: string[];
}

export function generalPathData(lang: 'en' | 'xx', longestPattern: number): GeneralPathData {
  const multi = (list: Iterable<string>): string =>
    [...list].filter((w) => [...w].length > 1 && !/[\ud800-\udfff]/.test(w)).join(' ');
  return {
    tables: [PREFIX_SINGLE, SUFFIX_SINGLE, ICONS, AFTER_DIGIT_SINGLE, MULTI_LAST, ALPHA_UPPER, ALPHA_LOWER, ALPHA, QUOTE_CHARS, PUNCT_CLASS_CHARS].map((set) => set.bmpTable),
    params: Int32Array.of(lang === 'en' ? 1 : 0, MAX_FIXED_SUFFIX, longestPattern),
    lists: [multi(SUFFIX_MULTI), multi(CURRENCY), multi(UNITS), LIST_HYPHENS.join(' ')],
  };
}

// `-` stays unescaped: outside a class, `\-` is an error in `u` mode.
const esc = (w: string): string => w.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const CLASS_A = ALPHA.toClassBody();
const CLASS_AL = ALPHA_LOWER.toClassBody();
const CLASS_AU = ALPHA_UPPER.toClassBody();
const CLASS_Q = QUOTE_CHARS.toClassBody();
const HYPHEN_ALT = LIST_HYPHENS.map(esc).join('|');

/** TOKENIZER_INFIXES: English (`lang/en/punctuation.py`) or the base list used by `xx`. */
export function infixRegex(lang: 'en' | 'xx'): RegExp {
  const hyphenBehind = lang === 'en' ? `${CLASS_A}0-9` : CLASS_A;
  return new RegExp(
    [
      '\\.\\.+',
      '…',
      `[${ICONS.toClassBody()}]`,
      '(?<=[0-9])[+\\-*^](?=[0-9-])',
      `(?<=[${CLASS_AL}${CLASS_Q}])\\.(?=[${CLASS_AU}${CLASS_Q}])`,
      `(?<=[${CLASS_A}]),(?=[${CLASS_A}])`,
      `(?<=[${hyphenBehind}])(?:${HYPHEN_ALT})(?=[${CLASS_A}])`,
      `(?<=[${CLASS_A}0-9])[:<>=/](?=[${CLASS_A}])`,
    ].join('|'),
    'gu',
  );
}

/** Characters without which no infix rule can match (a cheap pre-test before running the regex). */
const INFIX_TRIGGER = cpSet(['.', '…', '+', '-', '*', '^', ',', '–', '—', '~', ':', '<', '>', '=', '/']);
export function mayHaveInfix(s: string, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) {
    const c = s.charCodeAt(i);
    if (INFIX_TRIGGER.has(c)) return true;
    if (c >= 0xa0 && ICONS.has(cpAt(s, i))) return true;
  }
  return false;
}

/**
 * Marks the units of a class table for the tokenizer's fast path (plain.ts), which starts with every unit `inner`
 * and `plain`. `inner` is cleared on the units a rule can react to inside a chunk: the infix triggers and icons, `.`
 * (dot suffixes, `..` prefixes, URLs: every URL host has a dot), `$` (`US$` prefixes) and ASCII digits (unit and
 * currency suffixes and `+` only follow one). `plain` is also cleared on the single-unit prefixes and suffixes (the
 * quotes among them, so `'s` too). So a chunk with `plain` units at both ends and `inner` units between has no prefix,
 * suffix, infix or URL match unless it ends with `'s`. `open` marks the units `findPrefix` returns as a one-unit prefix
 * wherever they stand; `close` those `findSuffix` returns as a one-unit suffix wherever they stand (no longer suffix
 * ends with them); `dotAfter` the units after which a final `.` is a one-unit suffix; `alpha` the ALPHA class of the
 * infix rules.
 */
export function markUnits(
  table: Uint8Array,
  bits: { plain: number; inner: number; open: number; close: number; dotAfter: number; alpha: number },
): void {
  const both = ~(bits.inner | bits.plain);
  for (const set of [INFIX_TRIGGER, ICONS]) set.andIn(table, both);
  for (const ch of '.$0123456789') table[ch.charCodeAt(0)]! &= both;
  for (const set of [PREFIX_SINGLE, SUFFIX_SINGLE]) set.andIn(table, ~bits.plain);
  PREFIX_SINGLE.orIn(table, bits.open);
  SUFFIX_SINGLE.orIn(table, bits.close);
  MULTI_LAST.andIn(table, ~bits.close);
  // DOT_AFTER's members, as ranges (a loop over every unit would run in the interpreter at start-up).
  for (const set of [ALPHA_LOWER, PUNCT_CLASS_CHARS, QUOTE_CHARS]) set.orIn(table, bits.dotAfter);
  for (const ch of '0123456789%²-+(?:)') table[ch.charCodeAt(0)]! |= bits.dotAfter;
  ALPHA.orIn(table, bits.alpha);
}
