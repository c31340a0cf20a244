// WordIds gives the ids a Map of sliced words would, through collisions and table growth.
import { describe, expect, it } from 'vitest';
import { WordIds } from './word-ids.js';

describe('WordIds', () => {
  it('numbers words in first-occurrence order, equal words equal ids, whatever the hash', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 1300}${i % 3 === 0 ? 'é' : ''}`);
    const text = words.join(' ');
    // A constant hash puts every word in one probe chain: only the comparison in the text can tell them apart.
    for (const hashOf of [(w: string) => [...w].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193), 7), () => 42]) {
      const table = new WordIds(text, 4);
      const map = new Map<string, number>();
      let at = 0;
      for (const w of words.slice(0, hashOf.length === 0 ? 600 : words.length)) {
        const fresh = !map.has(w);
        const want = map.get(w) ?? map.size;
        map.set(w, want);
        expect(table.id(hashOf(w), at, at + w.length)).toBe(want);
        expect(table.isNew).toBe(fresh);
        at += w.length + 1;
      }
      expect(table.size).toBe(map.size);
    }
  });
});
