// spaCy's character classes as fast code-point sets, parsed from the Python class strings in char-data.ts.
import * as D from './char-data.js';

/** A set of code points: a bitmap for the BMP, sorted ranges beyond it. */
export class CodePointSet {
  private readonly bmp = new Uint8Array(0x10000);
  private readonly astral: Array<[number, number]> = [];
  private readonly bmpRanges: Array<[number, number]> = [];

  // Built at module load by every command that tags: fill() and range lists, not per-code-point loops,
  // which run in the interpreter that early (≈ 20 ms of `assay tag` start-up before).
  constructor(ranges: Iterable<readonly [number, number]>) {
    for (const [lo, hi] of ranges) {
      if (lo <= 0xffff && lo <= hi) {
        this.bmp.fill(1, lo, Math.min(hi, 0xffff) + 1);
        this.bmpRanges.push([lo, Math.min(hi, 0xffff)]);
      }
      if (hi > 0xffff) this.astral.push([Math.max(lo, 0x10000), hi]);
    }
  }

  /** The BMP bitmap (1 for a member): for native/spacy-general.c, which reads it once. Not to be written. */
  get bmpTable(): Uint8Array {
    return this.bmp;
  }

  has(cp: number): boolean {
    if (cp <= 0xffff) return this.bmp[cp] === 1;
    for (const [lo, hi] of this.astral) if (cp >= lo && cp <= hi) return true;
    return false;
  }

  /** `table[c] |= bits` for every BMP code point c of the set. */
  orIn(table: Uint8Array, bits: number): void {
    for (const [lo, hi] of this.bmpRanges) for (let c = lo; c <= hi; c++) table[c]! |= bits;
  }

  /** `table[c] &= bits` for every BMP code point c of the set. */
  andIn(table: Uint8Array, bits: number): void {
    for (const [lo, hi] of this.bmpRanges) for (let c = lo; c <= hi; c++) table[c]! &= bits;
  }

  /** The set as a JS `u`-mode character-class body (for the few rules kept as regexes). */
  toClassBody(): string {
    const out: string[] = [];
    const hex = (c: number): string => `\\u{${c.toString(16)}}`;
    // Maximal runs of the BMP bitmap: the ranges sorted, overlapping or touching ones merged.
    const sorted = [...this.bmpRanges].sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < sorted.length; ) {
      const start = sorted[i]![0];
      let end = sorted[i]![1];
      for (i++; i < sorted.length && sorted[i]![0] <= end + 1; i++) end = Math.max(end, sorted[i]![1]);
      out.push(start === end ? hex(start) : `${hex(start)}-${hex(end)}`);
    }
    for (const [lo, hi] of this.astral) out.push(lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`);
    return out.join('');
  }
}

/** Parse the body of a Python `[...]` class: literals, `\uXXXX`, `\UXXXXXXXX`, `\xXX`, `\c` escapes and `a-b` ranges. */
export function parsePythonClass(body: string): Array<[number, number]> {
  const atoms: number[] = [];
  const isRange: boolean[] = [];
  let i = 0;
  const readAtom = (): number => {
    const c = body.codePointAt(i) ?? 0;
    if (c !== 0x5c) {
      i += c > 0xffff ? 2 : 1;
      return c;
    }
    const k = body[i + 1];
    const hexLen = k === 'u' ? 4 : k === 'U' ? 8 : k === 'x' ? 2 : 0;
    if (hexLen > 0) {
      const v = parseInt(body.slice(i + 2, i + 2 + hexLen), 16);
      i += 2 + hexLen;
      return v;
    }
    const lit = body.codePointAt(i + 1) ?? 0;
    i += lit > 0xffff ? 3 : 2;
    return lit;
  };
  while (i < body.length) {
    atoms.push(readAtom());
    const dash = body[i] === '-' && i + 1 < body.length;
    isRange.push(dash);
    if (dash) i++;
  }
  const ranges: Array<[number, number]> = [];
  for (let k = 0; k < atoms.length; k++) {
    const a = atoms[k] as number;
    if (isRange[k] && k + 1 < atoms.length) {
      ranges.push([a, atoms[k + 1] as number]);
      k++;
    } else ranges.push([a, a]);
  }
  return ranges;
}

const set = (...bodies: string[]): CodePointSet => new CodePointSet(bodies.flatMap((b) => parsePythonClass(b)));
const words = (s: string): string[] => s.split(' ').filter((w) => w.length > 0);

export const ALPHA = set(D.LATIN, 'ёа-яЁА-Я', 'әөүҗңһӘӨҮҖҢҺ', 'α-ωάέίόώήύΑ-ΩΆΈΊΌΏΉΎ', 'а-щюяіїєґА-ЩЮЯІЇЄҐ', 'ѓѕјљњќѐѝЃЅЈЉЊЌЀЍ', D.UNCASED);
export const ALPHA_LOWER = set(D.LATIN_LOWER, D.OTHER_LOWER, D.UNCASED);
export const ALPHA_UPPER = set(D.LATIN_UPPER, D.OTHER_UPPER, D.UNCASED);
export const ICONS = set(D.ICONS);

export const LIST_PUNCT = words(D.PUNCT);
export const LIST_QUOTES = words(D.QUOTES);
export const LIST_CURRENCY = words(D.CURRENCY);
export const LIST_UNITS = words(D.UNITS);
export const LIST_HYPHENS = words(D.HYPHENS);

const chars = (list: string[]): CodePointSet =>
  new CodePointSet(list.flatMap((w) => [...w].map((ch) => [ch.codePointAt(0) ?? 0, ch.codePointAt(0) ?? 0] as [number, number])));
export const QUOTE_CHARS = chars(LIST_QUOTES);
/** Characters of the `PUNCT` alternation (`…|……|,|…`) as they appear inside spaCy's suffix lookbehind class. */
export const PUNCT_CLASS_CHARS = chars([...LIST_PUNCT, '|']);
