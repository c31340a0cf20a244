// The index against a brute-force reference: the same matched windows and items, on text dense in partial matches.
import { describe, expect, it } from 'vitest';
import type { LoadedEvalSet } from './eval-sets.js';
import { DeconIndex } from './index.js';
import { lcg } from './test-corpus.js';
import { decontWords } from './words.js';

describe('DeconIndex.match', () => {
  it('finds exactly the windows a set of joined n-grams finds (small vocabulary, unknown words, n = 3 and 5)', () => {
    const rnd = lcg(11);
    const vocab = ['ka', 'lo', 'mi', 'nu', 'pe', 'ra', 'so', 'ti'];
    const text = (k: number, extra: string[] = []): string => Array.from({ length: k }, () => [...vocab, ...extra][rnd(vocab.length + extra.length)]).join(rnd(3) ? ' ' : ', ');
    for (const n of [3, 5]) {
      const items = Array.from({ length: 30 }, (_, k) => ({ id: String(k), text: text(2 + rnd(10)) }));
      const set: LoadedEvalSet = { config: { name: 's', path: 'x', fields: ['t'] }, sha256: '', items };
      const index = DeconIndex.build([set], n);
      const grams = new Map<string, Set<string>>();
      for (const it of items) {
        const w = decontWords(it.text).words;
        for (let i = 0; i + n <= w.length; i++) {
          const g = w.slice(i, i + n).join(' ');
          if (!grams.has(g)) grams.set(g, new Set());
          grams.get(g)?.add(`s:${it.id}`);
        }
      }
      for (let d = 0; d < 300; d++) {
        const doc = text(40, ['zz', 'qq']);
        const w = decontWords(doc).words;
        let count = 0;
        const hits = new Set<string>();
        for (let i = 0; i + n <= w.length; i++) {
          const found = grams.get(w.slice(i, i + n).join(' '));
          if (found) count++;
          for (const h of found ?? []) hits.add(h);
        }
        const m = index.match(doc);
        expect(m.ngrams, doc).toBe(count);
        expect(m.hits, doc).toEqual([...hits].sort());
        for (const [a, b] of m.spans) expect(a < b && b <= doc.length).toBe(true);
      }
    }
  });
});
