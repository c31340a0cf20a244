// The tokenizer's chunk cache: hits by the chunk's text wherever it sits, and keys that do not keep their documents alive.
import { describe, expect, it } from 'vitest';
import { heapKept } from '../../testing.js';
import { ownCopy } from '../own-copy.js';
import { ChunkCache } from './cache.js';

describe('ChunkCache', () => {
  it('finds a chunk by its text in any string, misses other text and chunks longer than its key limit', () => {
    const c = new ChunkCache();
    c.set('say hello-world now', 4, 15, [5, 1, 5]);
    expect(c.get('hello-world', 0, 11)).toEqual([5, 1, 5]);
    expect(c.get('a hello-world', 2, 13)).toEqual([5, 1, 5]);
    expect(c.get('hello-worlds', 0, 12)).toBeUndefined();
    const long = 'x'.repeat(65);
    c.set(long, 0, 65, [65]);
    expect(c.get(long, 0, 65)).toBeUndefined();
  });

  it('keeps copies of its keys, not views into the documents they came from (200 documents of 1 MB stay collectable)', async () => {
    const c = new ChunkCache();
    const kept = await heapKept(() => {
      for (let i = 0; i < 200; i++) {
        // A fresh 1 MB string per document, with a chunk of 19 characters (past V8's 13 for a sliced view) to cache.
        const doc = `chunk-number-${String(i).padStart(6, '0')} ` + String.fromCharCode(97 + (i % 26)).repeat(1_000_000);
        c.set(doc, 0, 19, [19]);
        expect(c.get(doc, 0, 19)).toEqual([19]);
      }
    });
    // Views would keep all 200 MB; copies keep a few kilobytes.
    expect(kept).toBeLessThan(20e6);
    expect(c.get('chunk-number-000007', 0, 19)).toEqual([19]);
  });

  it('keeps every entry while it grows from 4,096 slots to its full size, and starts over once that is half full', () => {
    const c = new ChunkCache();
    const chunk = (i: number) => `w${i}-x`;
    for (let i = 0; i < 65_536; i++) c.set(`(${chunk(i)})`, 1, 1 + chunk(i).length, [i]);
    for (let i = 0; i < 65_536; i++) expect(c.get(chunk(i), 0, chunk(i).length)).toEqual([i]);
    // The 65,537th entry finds the full table half full: it is emptied and keeps only what comes after.
    c.set(chunk(65_536), 0, chunk(65_536).length, [65_536]);
    expect(c.get(chunk(0), 0, chunk(0).length)).toBeUndefined();
    expect(c.get(chunk(65_536), 0, chunk(65_536).length)).toEqual([65_536]);
  });

  it('ownCopy is the same text as slice, for short and long ranges', () => {
    const s = 'abcdefghijklmnopqrstuvwxyz';
    for (const [lo, hi] of [[0, 0], [0, 5], [3, 16], [0, 26], [10, 26]] as const) expect(ownCopy(s, lo, hi)).toBe(s.slice(lo, hi));
    expect(ownCopy(s)).toBe(s);
  });
});
