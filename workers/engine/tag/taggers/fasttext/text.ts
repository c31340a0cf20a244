// Text units (Dolma paragraphs, approximate sentences) and the per-line input fastText expects.
import { PY_WS, pySplit, pyStrip } from '../../../text/python.js';

/** A slice of the document, UTF-16 offsets, end exclusive. */
export interface TextUnit {
  start: number;
  end: number;
  text: string;
}

/**
 * Dolma `split_paragraphs` (`core/utils.py`): matches of `([^\n]*\n|[^\n]+$)`, i.e. every line with
 * its trailing `\n` plus an unterminated last line, minus those whose `strip()` is empty.
 */
export function splitParagraphs(text: string): TextUnit[] {
  const out: TextUnit[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl + 1;
    const slice = text.slice(start, end);
    if (!isBlank(slice)) out.push({ start, end, text: slice });
    start = end;
  }
  return out;
}

/** `s.strip() == ""` without building the stripped copy of a long line. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!PY_WS.test(s[i] as string)) return false;
  return true;
}

// A terminator run, then closing quotes/brackets; the boundary is the whitespace that follows.
const SENTENCE_END = /[.!?\u2026\u3002\uff01\uff1f]+["'\u2019\u201d)\]\u00bb]*(?=\s)|\n/gu;

/**
 * Sentences for the `*_sentence_*` taggers. Dolma uses blingfire or NLTK Punkt, neither of which
 * exists in JS; this splits after `.`, `!`, `?`, `…` or CJK full stops (plus closing quotes and
 * brackets) that precede whitespace, and at every newline (fastText sees one line at a time anyway).
 * Units are trimmed of surrounding whitespace and empty ones dropped, like blingfire's offsets.
 */
export function splitSentences(text: string): TextUnit[] {
  const out: TextUnit[] = [];
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && PY_WS.test(text[s] as string)) s++;
    while (e > s && PY_WS.test(text[e - 1] as string)) e--;
    if (e > s) out.push({ start: s, end: e, text: text.slice(s, e) });
  };
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m !== null; m = SENTENCE_END.exec(text)) {
    const end = m.index + m[0].length;
    push(end);
    start = end;
  }
  push(text.length);
  return out;
}

/** Dolma's language taggers: `text.lower().replace("\n", " ").strip()` (`taggers/language.py`). */
export const dolmaLangInput = (text: string): string => pyStrip(text.toLowerCase().replace(/\n/g, ' '));

/** Dolma's jigsaw taggers: `text.replace("\n", " ").strip()` (`taggers/jigsaw.py`). */
export const newlineToSpaceInput = (text: string): string => pyStrip(text.replace(/\n/g, ' '));

/** Dolma 1.7 quality tagger: `Strip` normaliser + `WhitespaceSplit`, joined by one space. */
export const whitespaceJoinInput = (text: string): string => pySplit(text).join(' ');
