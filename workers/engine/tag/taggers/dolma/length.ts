// Dolma's length taggers (`taggers/length.py`): characters and regex tokens, per document and per paragraph.
import type { TaggerSpec, TagSpan } from '../../types.js';
import { cpCount, docOutput, isPyWs, isUniWs, spanOutput, splitParagraphs } from './text.js';

/** `regex`'s `\w` (its Word property: Alphabetic, marks, Nd, Pc, Join_Control). */
const WORD = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u;
const W = 1;
const O = 2;
const ASCII_CLASS = new Uint8Array(128).map((_, c) => (isUniWs(c) ? 0 : WORD.test(String.fromCharCode(c)) ? W : O));
const classCache = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 128) return ASCII_CLASS[cp] ?? O;
  let k = classCache.get(cp);
  if (k === undefined) {
    k = isUniWs(cp) ? 0 : WORD.test(String.fromCodePoint(cp)) ? W : O;
    if (classCache.size < 65536) classCache.set(cp, k);
  }
  return k;
}

/**
 * `len(regex.split(r"\w+|[^\w\s]+", text))`. The pattern has no groups and no empty matches, so the
 * piece count is the match count + 1 **[Dolma quirk: tokens + 1; "" and "  " count 1]**. Each match
 * is a maximal run of word characters or of other non-space characters, so one pass counts them.
 */
export function whitespaceTokenPieces(text: string, start = 0, end = text.length): number {
  let runs = 0;
  let prev = 0;
  for (let i = start; i < end; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < end) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    const k = classOf(cp);
    if (k !== 0 && k !== prev) runs++;
    prev = k;
  }
  return runs + 1;
}

const whole = (text: string, type: string, score: number): TagSpan => ({ start: 0, end: text.length, type, score });

export const charLengthV1: TaggerSpec = {
  name: 'char_length_v1',
  description: 'Length of the text in characters (Unicode code points)',
  outputs: [docOutput('length', 'len(text) in code points', '≥ 0 (code points)')],
  create: () => ({ tag: (doc) => [whole(doc.text, 'length', cpCount(doc.text))] }),
};

export const charLengthStripWsV1: TaggerSpec = {
  name: 'char_length_strip_ws_v1',
  description: 'Length of the text without leading and trailing whitespace',
  outputs: [docOutput('length_no_ws', 'len(text.strip()) in code points (Python whitespace)', '≥ 0 (code points)')],
  create: () => ({
    tag(doc) {
      const t = doc.text;
      let a = 0;
      let b = t.length;
      while (a < b && isPyWs(t.charCodeAt(a))) a++;
      while (b > a && isPyWs(t.charCodeAt(b - 1))) b--;
      return [whole(t, 'length_no_ws', cpCount(t, a, b))];
    },
  }),
};

export const charLengthWithParagraphsV1: TaggerSpec = {
  name: 'char_length_with_paragraphs_v1',
  description: 'Length in characters of every non-blank paragraph and of the whole text',
  outputs: [
    spanOutput('paragraph', 'Paragraph length in code points, its trailing newline included', '≥ 1 (code points)'),
    docOutput('document', 'len(text) in code points', '≥ 0 (code points)'),
  ],
  create: () => ({
    tag(doc) {
      const spans: TagSpan[] = splitParagraphs(doc.text).map((p) => ({ ...p, type: 'paragraph', score: cpCount(doc.text, p.start, p.end) }));
      spans.push(whole(doc.text, 'document', cpCount(doc.text)));
      return spans;
    },
  }),
};

export const whitespaceTokenizerV1: TaggerSpec = {
  name: 'whitespace_tokenizer_v1',
  description: 'Number of word and punctuation runs (regex \\w+|[^\\w\\s]+) plus one, as Dolma counts them',
  outputs: [docOutput('length', 'Runs of word characters or of other non-space characters, + 1 (Dolma quirk)', '≥ 1')],
  create: () => ({ tag: (doc) => [whole(doc.text, 'length', whitespaceTokenPieces(doc.text))] }),
};

export const whitespaceTokenizerWithParagraphsV1: TaggerSpec = {
  name: 'whitespace_tokenizer_with_paragraphs_v1',
  description: 'whitespace_tokenizer_v1 per non-blank paragraph, and their sum for the document',
  outputs: [
    spanOutput('paragraph', 'Word/punctuation runs in the paragraph + 1 (Dolma quirk)', '≥ 2'),
    docOutput('document', 'Sum of the paragraph scores (so one extra per paragraph; 0 without paragraphs)', '≥ 0'),
  ],
  create: () => ({
    tag(doc) {
      const spans: TagSpan[] = splitParagraphs(doc.text).map((p) => ({ ...p, type: 'paragraph', score: whitespaceTokenPieces(doc.text, p.start, p.end) }));
      spans.push(whole(doc.text, 'document', spans.reduce((s, p) => s + p.score, 0)));
      return spans;
    },
  }),
};

