// Priming runs a tagger's function over the priming texts once per process and name, and not for small input files.
import { describe, expect, it } from 'vitest';
import { PRIME_MIN_INPUT_BYTES, primeOnce, TEXTS } from './warm-up.js';

const ctx = (inputBytes?: number) => ({ seed: 0, cwd: '.', inputBytes });

describe('primeOnce', () => {
  it('runs the function over every text twice, once per name', () => {
    const seen: string[] = [];
    primeOnce('test:once', (t) => seen.push(t), ctx(PRIME_MIN_INPUT_BYTES));
    primeOnce('test:once', (t) => seen.push(t), ctx(PRIME_MIN_INPUT_BYTES));
    expect(seen).toEqual([...TEXTS, ...TEXTS]);
  });

  it('skips a file smaller than PRIME_MIN_INPUT_BYTES, and primes for a later large one', () => {
    const seen: string[] = [];
    primeOnce('test:small', (t) => seen.push(t), ctx(PRIME_MIN_INPUT_BYTES - 1));
    expect(seen).toEqual([]);
    primeOnce('test:small', (t) => seen.push(t), ctx(10 * PRIME_MIN_INPUT_BYTES));
    expect(seen.length).toBe(2 * TEXTS.length);
  });

  it('primes when the input size is unknown (taggers created outside a tag run)', () => {
    const seen: string[] = [];
    primeOnce('test:unknown', (t) => seen.push(t), ctx(undefined), ['a', 'b']);
    expect(seen).toEqual(['a', 'b', 'a', 'b']);
  });
});
