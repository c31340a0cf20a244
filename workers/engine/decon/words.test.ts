// The tracked normalisation gives exactly DataTrove's words (simplify_text + spaCy-en), and each maps back to its original text.
import { describe, expect, it } from 'vitest';
import { heapKept } from '../testing.js';
import { simplifyText } from '../text/simplify.js';
import { splitIntoWords } from '../text/words.js';
import { simplifyTracked } from './simplify-tracked.js';
import { lcg } from './test-corpus.js';
import { decontWords } from './words.js';

const PIECES = ['The', "don't", 'Cannot', '12.5', '3,000', '1.2.3', '—', 'café', 'Ωμέγα', 'ΣΟΦΟΣ', 'İstanbul', '😀x', 'naïve', '\n\n', '\t', '  ',
  '"quoted"', 'e.g.', 'U.S.A.', 'well-written', '$17.56', '|', '10km', 'x\u0301', 'ß', 'ﬁne', '٣٤', '…', 'gonna', 'im', 'its', '\r\n', '\u00a0', 'Ǆemal', '\u3000', '\u2028', '\x85', '\x1c', 'a\u2003b', '٣٫٥', 'ΌΣΟΣ x'];

describe('decontamination words', () => {
  it('equal splitIntoWords(simplifyText(text)) on mixed ASCII / Unicode / punctuation / number text', () => {
    const rnd = lcg(7);
    for (let k = 0; k < 3000; k++) {
      let t = '';
      for (let i = 0, len = 1 + rnd(12); i < len; i++) t += (PIECES[rnd(PIECES.length)] as string) + (rnd(2) ? ' ' : '');
      expect(simplifyTracked(t).text, JSON.stringify(t)).toBe(simplifyText(t));
      expect(decontWords(t).words, JSON.stringify(t)).toEqual(splitIntoWords(simplifyText(t)));
    }
  });

  it('map each word to its range in the original text (numbers, diacritics, case, astral; punctuation outside)', () => {
    const text = "Hello, World! It's 12.5 km—naïve CAFÉ.\n\nNext 😀para";
    const d = decontWords(text);
    expect(d.words).toEqual(['hello', 'world', 'it', 's', '0', 'km', 'naive', 'cafe', 'next', '😀', 'para']);
    expect(d.words.map((_w, i) => text.slice(d.starts[i], d.ends[i]))).toEqual(['Hello', 'World', 'It', 's', '12.5', 'km', 'naïve', 'CAFÉ', 'Next', '😀', 'para']);
  });

  it('handle empty and punctuation-only text', () => {
    expect(decontWords('').words).toEqual([]);
    expect(decontWords(' ,.;— \n').words).toEqual([]);
  });

  it('cache their words as copies, not views into the documents (100 documents of 0.3 MB, each with a word of its own, stay collectable)', async () => {
    const kept = await heapKept(() => {
      for (let i = 0; i < 100; i++) {
        const word = `uniquelongword${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}`;
        expect(decontWords(`${word} ` + 'filler '.repeat(45_000)).words[0]).toBe(word);
      }
    });
    // Views would keep all 30 MB; copies keep a few kilobytes.
    expect(kept).toBeLessThan(6e6);
  });
});
