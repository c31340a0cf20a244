// The ASCII fast path of the deduper's word splitter must agree with the ICU UAX#29 segmenter.
import { describe, expect, it } from 'vitest';
import { dedupeWords } from './words.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
const icuWords = (s: string): string[] => [...segmenter.segment(s)].map((x) => x.segment).filter((x) => /[^\t ]/.test(x));

describe('dedupeWords', () => {
  it('splits like ICU on hand-picked ASCII', () => {
    for (const s of ["a:b a.b 1.5 1,5 a'b 1'2 a_b 1:2 a;b 1;2 a,b _a a_ 3a a3 1.a a.1 x--y", "don't 1,000.5 e.g. U.S.A. foo_bar:baz 'quoted' end.", '', '   ', '.a. ,1, :a:']) {
      expect(dedupeWords(s)).toEqual(icuWords(s));
    }
  });

  it('splits like ICU on 20,000 random ASCII strings', () => {
    const alphabet = "ab1_.,;:'  -!\t\"(z9";
    let seed = 7;
    const rnd = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    for (let t = 0; t < 20000; t++) {
      const s = Array.from({ length: rnd(16) }, () => alphabet[rnd(alphabet.length)]).join('');
      expect(dedupeWords(s), JSON.stringify(s)).toEqual(icuWords(s));
    }
  });

  it('uses ICU for anything else', () => {
    expect(dedupeWords('naïve café 😊 日本語')).toEqual(icuWords('naïve café 😊 日本語'));
  });
});
