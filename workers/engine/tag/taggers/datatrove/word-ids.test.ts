// The words of a document numbered in C (native/spacy.c's spacyWords) against the JavaScript Builder.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../native-addon.js';
import { tokenizerFor } from '../../../text/words.js';
import { viewOf } from '../../view.js';
import { wordIdsFor, wordIdsOfTokens } from './word-ids.js';

let seed = 5;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const PIECES = ['the', 'The', 'a', 'word', 'words', "don't", 'U.S.', '😀', '𝐀', '\ud800', '\udc00', 'é', 'ß', '(', ')', ',', '.', '-', '—', '"', 'x'.repeat(40), '٣', '\u3000', ' ', '  ', '\n', '\t', '\u00a0'];

describe.runIf(nativeAddon() !== null)('word ids in C (spacyWords)', () => {
  it("numbers the spaCy words as the JavaScript Builder does: ids, first occurrences, code points, characters", () => {
    const texts = ['', ' ', 'a', ' a a ', 'a\ud800 \ud800a a\ud800'];
    for (let k = 0; k < 2000; k++) texts.push(Array.from({ length: 1 + rnd(60) }, () => PIECES[rnd(PIECES.length)]).join(rnd(3) === 0 ? '' : ' '));
    // One with more distinct words than the table's first size.
    texts.push(Array.from({ length: 3000 }, (_, i) => `w${i % 1700}`).join(' '));
    for (const text of texts) {
      const want = wordIdsOfTokens(text, tokenizerFor('eng').tokenize(text));
      expect(wordIdsFor(text, 'eng', 'head'), JSON.stringify(text.slice(0, 60))).toEqual(want);
    }
  });

  it('refuses tokens outside the text and output arrays too short for them', () => {
    const tok = tokenizerFor('eng');
    const words = tok.nativeWords!;
    const text = 'one two three';
    const tokens = tok.tokenize(text);
    const out = (n: number, chars = text.length) => [new Int32Array(n), new Int32Array(n), new Int32Array(n), new Int32Array(n + 1), new Uint16Array(chars)] as const;
    expect(words(text, tokens, ...out(3))).toEqual([3, 3]);
    expect(() => words(text, tokens, ...out(2))).toThrow(/room for every token/);
    expect(() => words(text, tokens, ...out(3, 5))).toThrow(/chars is shorter/);
    expect(() => words(text, { starts: Int32Array.of(0, 4), ends: Int32Array.of(3, 99) }, ...out(3))).toThrow(/outside the text/);
    expect(() => words(text, { starts: Int32Array.of(2), ends: Int32Array.of(1) }, ...out(3))).toThrow(/outside the text/);
    // The view's shared numbering is what the taggers read.
    expect(wordIdsFor(text, 'eng', 'head')).toBe(wordIdsFor(viewOf(text).text, 'eng', 'head'));
  });
});
