// spaCy sentencizer semantics: sentence starts, split_into_sentences pieces, sent_tokenize counts.
import { describe, expect, it } from 'vitest';
import { countSentences, sentenceSpans, splitIntoSentences } from './sentences.js';

describe('spaCy sentencizer semantics', () => {
  it('starts a sentence at the first non-punctuation token after a sentence-final mark', () => {
    const text = 'Hello world. This is it!  And more... yes. ok';
    expect(splitIntoSentences(text)).toEqual(['Hello world.', ' This is it!', '  And more... yes.', ' ok']);
    expect(countSentences(text)).toBe(4);
  });

  it('does not split on "..." (not a punct_char token) or inside abbreviations kept whole', () => {
    expect(countSentences('Wait... what')).toBe(1);
    expect(countSentences('Dr. Smith arrived. He sat.')).toBe(2); // "Dr." is one token, so only "arrived." splits
  });

  it('keeps closing punctuation with the sentence that ends', () => {
    expect(sentenceSpans('He said "stop!" Then left.').length).toBe(2);
  });

  it('gives [text] and no span for texts without tokens; sent_tokenize drops blank sentences', () => {
    expect(splitIntoSentences('')).toEqual(['']);
    expect(sentenceSpans('')).toEqual([]);
    expect(sentenceSpans('   ')).toEqual([[0, 3]]); // one whitespace token, one sentence
    expect(countSentences('   ')).toBe(0);
  });
});
