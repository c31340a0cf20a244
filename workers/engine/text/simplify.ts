// DataTrove `simplify_text` (utils/text.py, datatrove-spec §2.2): the normalization MinHash and dedup hash, HEAD and v0.2.0.
import { PUNCTUATION } from './charsets.js';
import { PY_WS_CHARS, pyStrip } from './python.js';

/** DataTrove `TextNormConfig` (defaults as upstream). */
export interface TextNormConfig {
  lowercase: boolean;
  norm_whitespace: boolean;
  remove_punctuation: boolean;
  norm_unicode_diacritics: boolean;
  norm_numbers: boolean;
  norm_weekdays: boolean;
  norm_monthnames: boolean;
}

export const DEFAULT_TEXT_NORM_CONFIG: Readonly<TextNormConfig> = {
  lowercase: true,
  norm_whitespace: true,
  remove_punctuation: true,
  norm_unicode_diacritics: true,
  norm_numbers: true,
  norm_weekdays: false,
  norm_monthnames: false,
};

/** HEAD `NUMBERS_PATTERN` (`regex` module): digits with at most one decimal-separated group. */
const NUMBERS_HEAD = /\p{Nd}+(?:[.,،٫⎖⎗⎘]\p{Nd}+)?/gu;
/** v0.2.0 `re.compile(r"\d+")` (Python `\d` is Unicode Nd). */
const NUMBERS_V020 = /\p{Nd}+/gu;
const WHITESPACE = new RegExp(`[${PY_WS_CHARS}]+`, 'g');
/** Upstream patterns have no word boundaries: `mayor` becomes `MONTHor`. */
const WEEKDAYS = /monday|tuesday|wednesday|thursday|friday|saturday|sunday/g;
const MONTHS = /january|february|march|april|may|june|july|august|september|october|november|december/g;
const PUNCT_RE = new RegExp(`[${[...PUNCTUATION].map((c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`).join('')}]`, 'gu');
const MN = /\p{Mn}/gu;

const stripDiacritics = (t: string): string => t.normalize('NFD').replace(MN, '');
const normWhitespace = (t: string): string => pyStrip(t).replace(WHITESPACE, ' ');

/**
 * `simplify_text(text, config)`. HEAD order: lower → numbers → weekdays/months → punctuation to spaces → whitespace →
 * NFD minus Mn → strip. `fineweb-2024` (v0.2.0, what FineWeb's MinHash used): lower → whitespace → punctuation deleted
 * → NFD minus Mn → `\d+` → weekdays/months → strip (so `"It's 12/05/2024 — isn't"` keeps a double space).
 */
export function simplifyText(
  text: string,
  config: Partial<TextNormConfig> = {},
  profile: 'head' | 'fineweb-2024' = 'head',
): string {
  const c: TextNormConfig = { ...DEFAULT_TEXT_NORM_CONFIG, ...config };
  let t = text;
  if (c.lowercase) t = t.toLowerCase();
  if (profile === 'head') {
    if (c.norm_numbers) t = t.replace(NUMBERS_HEAD, '0');
    if (c.norm_weekdays) t = t.replace(WEEKDAYS, 'WEEKDAY');
    if (c.norm_monthnames) t = t.replace(MONTHS, 'MONTH');
    if (c.remove_punctuation) t = t.replace(PUNCT_RE, ' ');
    if (c.norm_whitespace) t = normWhitespace(t);
    if (c.norm_unicode_diacritics) t = stripDiacritics(t);
    return pyStrip(t);
  }
  if (c.norm_whitespace) t = normWhitespace(t);
  if (c.remove_punctuation) t = t.replace(PUNCT_RE, '');
  if (c.norm_unicode_diacritics) t = stripDiacritics(t);
  if (c.norm_numbers) t = t.replace(NUMBERS_V020, '0');
  if (c.norm_weekdays) t = t.replace(WEEKDAYS, 'WEEKDAY');
  if (c.norm_monthnames) t = t.replace(MONTHS, 'MONTH');
  return pyStrip(t);
}
