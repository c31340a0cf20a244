// spaCy's final special-case pass (`_apply_special_cases`): re-merge token runs that spell a special case with affixes.
import { HashFilter } from './plain.js';

/** One special case the final pass can restore: its text and the token lengths affix splitting gives it. */
interface Pattern {
  text: string;
  lengths: number[];
}

/** Patterns grouped by their first two UTF-16 units (every kept pattern has two tokens or more). */
export interface SpecialMatcher {
  byStart: Map<number, Pattern[]>;
  /** Every pattern's text: a chunk none of whose token runs may spell one needs no lookups. */
  texts: HashFilter;
  /** The texts of the one-token patterns (a token the final pass may rewrite on its own). */
  oneToken: HashFilter;
  /** The longest pattern text: no longer run can spell one (and looking stays linear in the chunk). */
  longest: number;
}

const startKey = (s: string, i: number): number => s.charCodeAt(i) * 0x10000 + s.charCodeAt(i + 1);

/** A kept pattern as the generated table stores it: its text and the token lengths affix splitting gives it. */
export type PatternEntry = readonly [text: string, lengths: readonly number[]];

/**
 * The special cases the final pass can restore, in rule order. Upstream adds a rule to the matcher when
 * `find_prefix or find_infix or find_suffix` hits it, or it has a space. Rules with whitespace are left out: their
 * patterns are whitespace tokens, and re-merging those changes nothing. (Run for every tokenizer this took 20–35 ms
 * of start-up, most of it cold code: `matcher-data.ts` holds its result, and a test holds the two equal.)
 */
export function findPatterns(
  rules: Map<string, string[]>,
  isWs: (unit: number) => boolean,
  hasAffix: (s: string) => boolean,
  affixOnly: (s: string) => number[],
): PatternEntry[] {
  const out: PatternEntry[] = [];
  for (const [text, rule] of rules) {
    if ([...text].some((c) => isWs(c.charCodeAt(0))) || !hasAffix(text)) continue;
    const lengths = affixOnly(text);
    // A one-token pattern whose rule is one token rewrites a token into itself: leave it out.
    if (lengths.length === 1 && rule.length === 1) continue;
    out.push([text, lengths]);
  }
  return out;
}

/** The matcher over `patterns` (findPatterns' result). */
export function buildMatcher(patterns: readonly PatternEntry[]): SpecialMatcher {
  const byStart = new Map<number, Pattern[]>();
  const texts: string[] = [];
  const oneToken: string[] = [];
  for (const [text, lengths] of patterns) {
    const key = startKey(text, 0);
    const list = byStart.get(key) ?? [];
    list.push({ text, lengths: [...lengths] });
    byStart.set(key, list);
    texts.push(text);
    if (lengths.length === 1) oneToken.push(text);
  }
  return { byStart, texts: new HashFilter(texts), oneToken: new HashFilter(oneToken), longest: Math.max(0, ...texts.map((t) => t.length)) };
}

interface Match {
  start: number;
  end: number;
}

/** Matches inside one chunk (tokens given as lengths from `lo`), filtered and applied like `_filter_special_spans`. */
export function applySpecialMatcher(
  m: SpecialMatcher,
  s: string,
  lo: number,
  lengths: readonly number[],
  rules: Map<string, string[]>,
): readonly number[] {
  if (!maySpellPattern(m, s, lo, lengths)) return lengths;
  const matches: Match[] = [];
  for (let i = 0, a = lo; i < lengths.length; a += lengths[i++] as number) {
    // Patterns are two units or more; reading past the text's end would deoptimize this loop.
    if (a + 1 >= s.length) break;
    const candidates = m.byStart.get(startKey(s, a));
    if (candidates === undefined) continue;
    for (const p of candidates) {
      const n = p.lengths.length;
      if (i + n > lengths.length || !p.lengths.every((len, k) => len === lengths[i + k])) continue;
      if (s.startsWith(p.text, a)) matches.push({ start: i, end: i + n });
    }
  }
  if (matches.length === 0) return lengths;
  const offs = [lo];
  for (const len of lengths) offs.push((offs[offs.length - 1] as number) + len);
  // Longest first, then leftmost; a span is kept when neither its first nor its last token was seen (upstream marks
  // every token of every visited span as seen, kept or not).
  matches.sort((x, y) => y.end - y.start - (x.end - x.start) || x.start - y.start);
  const seen = new Set<number>();
  const kept: Match[] = [];
  for (const span of matches) {
    if (!seen.has(span.start) && !seen.has(span.end - 1)) kept.push(span);
    for (let t = span.start; t < span.end; t++) seen.add(t);
  }
  kept.sort((x, y) => x.start - y.start);
  const out: number[] = [];
  let t = 0;
  for (const span of kept) {
    while (t < span.start) out.push(lengths[t++] as number);
    const rule = rules.get(s.slice(offs[span.start], offs[span.end])) ?? [];
    for (const tok of rule) out.push(tok.length);
    t = span.end;
  }
  while (t < lengths.length) out.push(lengths[t++] as number);
  return out;
}

/** Whether some run of the tokens (lengths from `lo`) may spell a pattern's text. */
function maySpellPattern(m: SpecialMatcher, s: string, lo: number, lengths: readonly number[]): boolean {
  for (let i = 0, a = lo; i < lengths.length; a += lengths[i++] as number) {
    let h = 0;
    let b = a;
    for (let j = i; j < lengths.length; j++) {
      const e = b + (lengths[j] as number);
      if (e - a > m.longest) break;
      for (; b < e; b++) h = (h * 31 + s.charCodeAt(b)) | 0; // hashRange, a unit at a time
      if (m.texts.mayHave(h, b - a)) return true;
    }
  }
  return false;
}
