// not_alphanum_paragraph_v1 (`taggers/punctuation.py`): paragraphs made only of punctuation, spaces and emoji.
import type { TaggerSpec, TagSpan } from '../../types.js';
import { docOutput, isUniWs, spanOutput, splitParagraphs } from './text.js';

const PUNCT_OR_SYMBOL = /[\p{P}\p{S}]/u;
const ALPHABETIC = /\p{Alphabetic}/u;

/**
 * One character of `^([[:punct:]]|\s|[\U0001f300-\U0001f64f\U0001f680-\U0001f6ff\u2600-\u26ff\u2700-\u27bf]+)+$`
 * (`regex` package: `[[:punct:]]` is its posix_punct, punctuation and symbols minus alphabetics;
 * `\s` is White_Space). A paragraph matches iff every character is one of these; Dolma hands the
 * nested `(…+)+` to a backtracking engine, which is exponential when a long run ends in a
 * non-matching character (the 100k-emoji hang of Dolma #123), so each character is checked once.
 */
function allowed(cp: number): boolean {
  if ((cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f680 && cp <= 0x1f6ff) || (cp >= 0x2600 && cp <= 0x27bf)) return true;
  if (isUniWs(cp)) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  const ch = String.fromCodePoint(cp);
  return PUNCT_OR_SYMBOL.test(ch) && !ALPHABETIC.test(ch);
}

const cache = new Map<number, boolean>();
function allowedCached(cp: number): boolean {
  let v = cache.get(cp);
  if (v === undefined) {
    v = allowed(cp);
    if (cache.size < 65536) cache.set(cp, v);
  }
  return v;
}

const isAsciiAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);

function allPunctuation(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (isAsciiAlnum(text.charCodeAt(i))) return false;
  for (let i = start; i < end; i++) {
    const cp = text.codePointAt(i)!;
    const unit = cp > 0xffff && i + 1 < end ? 2 : 1;
    if (!allowedCached(unit === 2 ? cp : text.charCodeAt(i))) return false;
    i += unit - 1;
  }
  return true;
}

export const notAlphanumParagraphV1: TaggerSpec = {
  name: 'not_alphanum_paragraph_v1',
  description: 'Paragraphs with no ASCII letter or digit made only of punctuation, symbols, spaces and emoji',
  outputs: [
    spanOutput('all_punct', 'Score 1: a non-blank paragraph (with its \\n) of punctuation/symbols/spaces/emoji only', '1'),
    docOutput('all_punct', 'Score 0 over the whole text when no paragraph qualifies (same type as the spans)', '0'),
  ],
  create: () => ({
    tag(doc) {
      const spans: TagSpan[] = [];
      for (const p of splitParagraphs(doc.text)) if (allPunctuation(doc.text, p.start, p.end)) spans.push({ ...p, type: 'all_punct', score: 1 });
      if (spans.length === 0) spans.push({ start: 0, end: doc.text.length, type: 'all_punct', score: 0 });
      return spans;
    },
  }),
};
