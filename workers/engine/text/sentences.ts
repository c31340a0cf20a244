// Sentences as DataTrove's HEAD spaCy tokenizer gives them: `blank("en")` + the rule-based `sentencizer` pipe.
import { pyStrip } from './python.js';
import { spacyTokenOffsets } from './words.js';

/** spaCy `Sentencizer.default_punct_chars`. */
const PUNCT_CHARS = new Set(
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
  const { starts, ends } = spacyTokenOffsets(text, language);
  const spans: Array<[number, number]> = [];
  if (starts.length === 0) return spans;
  let sentStart = 0;
  let seenPeriod = false;
  for (let i = 0; i < starts.length; i++) {
    const tok = text.slice(starts[i], ends[i]);
    const inPunctChars = PUNCT_CHARS.has(tok);
    if (seenPeriod && !inPunctChars && !IS_PUNCT.test(tok)) {
      spans.push([starts[sentStart] as number, ends[i - 1] as number]);
      sentStart = i;
      seenPeriod = false;
    } else if (inPunctChars) {
      seenPeriod = true;
    }
  }
  spans.push([starts[sentStart] as number, ends[starts.length - 1] as number]);
  return spans;
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
