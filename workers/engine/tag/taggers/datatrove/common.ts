// What every DataTrove filter tagger shares: the profile option, word tokenizers, and the per-rule attribute scheme.
import { z } from 'zod';
import type { TaggerOutput, TagSpan } from '../../types.js';
import { viewOf } from '../../view.js';

export type Profile = 'head' | 'fineweb-2024';

export const profileOption = z
  .enum(['head', 'fineweb-2024'])
  .default('head')
  .describe(
    'DataTrove behaviour to reproduce: "head" (v0.10.0, the default) or "fineweb-2024" (v0.2.0, the code FineWeb was built with; datatrove-spec §1.3)',
  );

export const languageOption = z
  .string()
  .min(1)
  .default('eng')
  .describe('Word-tokenizer language (DataTrove `language`): eng / en / eng_Latn / en_Latn use spaCy-en rules, xx the multi-language blank');

/** A threshold DataTrove guards with `if self.x and …`: null or 0 switches the rule off. */
export const threshold = (def: number, what: string) => z.number().nullable().default(def).describe(`${what}; null or 0 disables the rule`);

/**
 * `split_into_words` as each profile has it: spaCy-en at HEAD; at v0.2.0 NLTK's word_tokenize, approximated
 * (Treebank rules exact, punkt sentence split heuristic) because punkt's trained model is not available offline.
 * From the document's shared view: the taggers of a pass tokenize each document once between them.
 */
export function wordsFor(text: string, language: string, profile: Profile): readonly string[] {
  return viewOf(text).words(language, profile);
}

/** One rule of a filter, in DataTrove's evaluation order. */
export interface RuleOutcome {
  rule: string;
  /** The measured value; undefined when upstream could not compute it (e.g. a division by zero). */
  value?: number | undefined;
  fail: boolean;
  /** Upstream reason string; `null` for filters that drop without one (RegexFilter). Defaults to `rule`. */
  reason?: string | null;
}

const whole = (len: number, type: string, score: number): TagSpan => ({ start: 0, end: len, type, score });

/**
 * `<prefix><name>` made once per name: a string built for every document is a new string each time, which the
 * runtime's attribute-key lookup must hash and compare in full (≈ 12 ms of a 2 MB FineWeb pass). Names come from
 * the taggers' code and options (rule and reason names, n-gram sizes); past the bound they are built each time.
 */
export function typeNames(prefix: string, suffix: string): (name: string | number) => string {
  // Numbers (n-gram sizes) are keys as they are: String(n) per document would be the new string this avoids.
  const made = new Map<string | number, string>();
  return (name) => {
    let t = made.get(name);
    if (t === undefined) {
      t = `${prefix}${name}${suffix}`;
      if (made.size < 1024) made.set(name, t);
    }
    return t;
  };
}
const failType = typeNames('', '_fail');
const reasonType = typeNames('reason_', '');

/**
 * Document spans for a filter: `<rule>` = measured value, `<rule>_fail` = 0/1, `reason_<reason>` = 1 for the first
 * failing rule only, and `kept` = 1 when no rule failed. Every rule is evaluated (upstream stops at the first failure),
 * so kept/reason are DataTrove's and the other values show how close the document came to each threshold.
 */
export function filterSpans(textLength: number, outcomes: readonly RuleOutcome[], extra: readonly TagSpan[] = []): TagSpan[] {
  const spans: TagSpan[] = [];
  let first: RuleOutcome | undefined;
  for (const o of outcomes) {
    if (o.value !== undefined && Number.isFinite(o.value)) spans.push(whole(textLength, o.rule, o.value));
    spans.push(whole(textLength, failType(o.rule), o.fail ? 1 : 0));
    if (o.fail && first === undefined) first = o;
  }
  const reason = first === undefined ? null : first.reason === undefined ? first.rule : first.reason;
  if (reason !== null) spans.push(whole(textLength, reasonType(reason), 1));
  spans.push(whole(textLength, 'kept', first === undefined ? 1 : 0));
  for (const s of extra) spans.push(s);
  return spans;
}

/** Registry descriptions for a filter's rules plus `reason_*` and `kept`. */
export function filterOutputs(rules: ReadonlyArray<{ rule: string; measures: string; range: string }>): TaggerOutput[] {
  const out: TaggerOutput[] = [];
  for (const r of rules) {
    out.push({ type: r.rule, description: r.measures, range: r.range, level: 'document' });
    out.push({ type: `${r.rule}_fail`, description: `1 when the ${r.rule} rule fails`, range: '0 | 1', level: 'document' });
  }
  out.push({ type: 'reason_*', description: 'DataTrove reason string of the first failing rule (only that one), score 1', range: '1', level: 'document' });
  out.push({ type: 'kept', description: '1 when DataTrove keeps the document, 0 when it drops it', range: '0 | 1', level: 'document' });
  return out;
}

/** Python `str.count(sub)`: non-overlapping occurrences. */
export function pyCount(s: string, sub: string): number {
  let n = 0;
  for (let i = s.indexOf(sub); i !== -1; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/** Division that yields undefined where Python would raise ZeroDivisionError. */
export const ratio = (a: number, b: number): number | undefined => (b === 0 ? undefined : a / b);
/** `threshold and value > threshold`, false when either is missing. */
export const above = (v: number | undefined, t: number | null): boolean => !!t && v !== undefined && v > t;
export const below = (v: number | undefined, t: number | null): boolean => !!t && v !== undefined && v < t;
