// spaCy sentencizer semantics: sentence starts, split_into_sentences pieces, sent_tokenize counts.
import { describe, expect, it } from 'vitest';
import { countSentences, sentenceCountOfTokens, sentenceSpans, sentenceSpansOfTokens, splitIntoSentences } from './sentences.js';
import { spacyTokenOffsets } from './words.js';

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

  it('counts, without making them, the sentences of any run of tokens (C4 counts a line\'s)', () => {
    let seed = 3;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const PIECES = ['Hello', 'world', '.', '!', '?', '...', '"', ')', '(', '。', '！', '؟', 'Dr.', 'a', '1', '—', '\n', ' ', '  '];
    for (let k = 0; k < 500; k++) {
      const text = Array.from({ length: rnd(30) }, () => PIECES[rnd(PIECES.length)]).join(rnd(2) ? ' ' : '');
      const tokens = spacyTokenOffsets(text);
      const n = tokens.starts.length;
      for (const [from, to] of [[0, n], [rnd(n + 1), n], [0, rnd(n + 1)], [2, 1]] as const) {
        expect(sentenceCountOfTokens(text, tokens, from, to), JSON.stringify([text, from, to])).toBe(sentenceSpansOfTokens(text, tokens, from, to).length);
      }
    }
  });
});
