// Sentences as DataTrove's HEAD spaCy tokenizer gives them: `blank("en")` + the rule-based `sentencizer` pipe.
import { pyStrip } from './python.js';
import { spacyTokenOffsets, type TokenOffsets } from './words.js';

/** spaCy `Sentencizer.default_punct_chars`. */
export const PUNCT_CHARS = new Set(
  [
    '!', '.', '?', '։', '؟', '۔', '܀', '܁', '܂', '߹', '।', '॥', '၊', '။', '።', '፧', '፨', '᙮', '᜵', '᜶', '᠃', '᠉', '᥄',
    '᥅', '᪨', '᪩', '᪪', '᪫', '᭚', '᭛', '᭞', '᭟', '᰻', '᰼', '᱾', '᱿', '‼', '‽', '⁇', '⁈', '⁉', '⸮', '⸼', '꓿', '꘎',
    '꘏', '꛳', '꛷', '꡶', '꡷', '꣎', '꣏', '꤯', '꧈', '꧉', '꩝', '꩞', '꩟', '꫰', '꫱', '꯫', '﹒', '﹖', '﹗', '！', '．',
    '？', '𐩖', '𐩗', '𑁇', '𑁈', '𑂾', '𑂿', '𑃀', '𑃁', '𑅁', '𑅂', '𑅃', '𑇅', '𑇆', '𑇍', '𑇞', '𑇟', '𑈸', '𑈹', '𑈻',
    '𑈼', '𑊩', '𑑋', '𑑌', '𑗂', '𑗃', '𑗉', '𑗊', '𑗋', '𑗌', '𑗍', '𑗎', '𑗏', '𑗐', '𑗑', '𑗒', '𑗓', '𑗔', '𑗕', '𑗖', '𑗗',
    '𑙁', '𑙂', '𑜼', '𑜽', '𑜾', '𑩂', '𑩃', '𑪛', '𑪜', '𑱁', '𑱂', '𖩮', '𖩯', '𖫵', '𖬷', '𖬸', '𖭄', '𛲟', '𝪈', '｡', '。',
  ],
);

/** spaCy lexeme `is_punct`: every character is in a Unicode P* category. */
const IS_PUNCT = /^\p{P}+$/u;

/** `[(sent.start_char, sent.end_char) for sent in doc.sents]` — UTF-16 offsets. */
export function sentenceSpans(text: string, language = 'eng'): Array<[number, number]> {
  const tokens = spacyTokenOffsets(text, language);
  return sentenceSpansOfTokens(text, tokens, 0, tokens.starts.length);
}

/**
 * The sentences of the tokens `from..to` of `text` (as `sentenceSpans` of the text they cover: spaCy tokenizes each
 * whitespace-delimited chunk on its own, so a line's tokens are the whole text's tokens inside the line).
 */
export function sentenceSpansOfTokens(text: string, tokens: TokenOffsets, from: number, to: number): Array<[number, number]> {
  const { starts, ends } = tokens;
  const spans: Array<[number, number]> = [];
  if (to <= from) return spans;
  let sentStart = from;
  for (let i = nextSentence(text, tokens, from, to); i < to; i = nextSentence(text, tokens, i, to)) {
    spans.push([starts[sentStart] as number, ends[i - 1] as number]);
    sentStart = i;
  }
  spans.push([starts[sentStart] as number, ends[to - 1] as number]);
  return spans;
}

/** `sentenceSpansOfTokens(…).length`, with no span made (C4's sentence count). */
export function sentenceCountOfTokens(text: string, tokens: TokenOffsets, from: number, to: number): number {
  if (to <= from) return 0;
  let n = 1;
  for (let i = nextSentence(text, tokens, from, to); i < to; i = nextSentence(text, tokens, i, to)) n++;
  return n;
}

/**
 * The first token after `from` that starts a new sentence (the sentencizer's rule: a token after sentence
 * punctuation that is neither sentence punctuation nor punct), or `to`.
 */
function nextSentence(text: string, { starts, ends }: TokenOffsets, from: number, to: number): number {
  let seenPeriod = false;
  for (let i = from; i < to; i++) {
    // Most tokens start with an ASCII letter or digit: neither sentence punctuation nor punct, no slice needed.
    const c = text.charCodeAt(starts[i] as number);
    const plain = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
    const tok = plain ? '' : text.slice(starts[i], ends[i]);
    const inPunctChars = !plain && PUNCT_CHARS.has(tok);
    if (seenPeriod && !inPunctChars && (plain || !IS_PUNCT.test(tok))) return i;
    if (inPunctChars) seenPeriod = true;
  }
  return to;
}

/**
 * DataTrove `split_into_sentences(text)`: contiguous pieces cut at each sentence's end, the last running to the end of
 * the text (so each piece carries the whitespace before the next sentence). No sentence at all gives `[text]`.
 */
export function splitIntoSentences(text: string, language = 'eng'): string[] {
  const cuts = sentenceSpans(text, language).map(([, end]) => end);
  const bounds = [0, ...cuts.slice(0, -1)];
  const ends = [...cuts.slice(0, -1), text.length];
  return bounds.map((a, k) => text.slice(a, ends[k]));
}

/** `len(sent_tokenize(text))` for spaCy: sentences whose stripped text is non-empty. */
export function countSentences(text: string, language = 'eng'): number {
  let n = 0;
  for (const [a, b] of sentenceSpans(text, language)) if (pyStrip(text.slice(a, b)).length > 0) n++;
  return n;
}
