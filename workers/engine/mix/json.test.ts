// rustTrim is Rust's `str::trim` (Unicode White_Space, not JS's set) and stays linear on long inner whitespace; stringifySorted's native fast path writes what the member-by-member one does.
import { describe, expect, it } from 'vitest';
import { rng } from '../testing.js';
import { rustTrim, stringifySorted } from './json.js';

/** The definition stringifySorted must meet: keys sorted by code unit, undefined/function members skipped (null in arrays). */
function reference(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'string') return JSON.stringify(v);
    return typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'boolean' ? String(v) : 'null';
  }
  const skip = (x: unknown): boolean => x === undefined || typeof x === 'function';
  if (Array.isArray(v)) return `[${Array.from(v, (x: unknown) => (skip(x) ? 'null' : reference(x))).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort().filter((k) => !skip(o[k]));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(o[k])}`).join(',')}}`;
}

describe('stringifySorted', () => {
  it('equals the reference on random values: sorted and unsorted keys, integer-like keys, __proto__, undefined, NaN, Dates, symbols', () => {
    const rand = rng(5);
    const keys = ['a', 'b', 'B', '10', '9', '0', '__proto__', 'é', 'aa', '', 'z'];
    const leaf = (): unknown => [1, -0, 2.5e-7, 'x"\u2028', '\uD800', true, null, undefined, Number.NaN, Symbol('s'), new Date(0), () => 1][Math.floor(rand() * 12)];
    const gen = (d: number): unknown => {
      const r = rand();
      if (d > 4 || r < 0.3) return leaf();
      if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => gen(d + 1));
      const ks = keys.filter(() => rand() < 0.4);
      if (rand() < 0.5) ks.sort();
      const o: Record<string, unknown> = {};
      for (const k of ks) Object.defineProperty(o, k, { value: gen(d + 1), enumerable: true, writable: true, configurable: true });
      return o;
    };
    for (let n = 0; n < 5000; n++) {
      const v = gen(0);
      expect(stringifySorted(v)).toBe(reference(v));
      const parsed = JSON.parse(JSON.stringify(v) ?? 'null') as unknown;
      expect(stringifySorted(parsed)).toBe(reference(parsed));
    }
  });

  it('sorts every shape when shapes alternate at one depth, more of them than its order cache holds', () => {
    const shapes = [['url', 'lang', 'provenance'], ['z', 'a'], ['b', 'a', 'c'], ['a', 'b'], ['y', 'x', 'w', 'v'], ['q', 'p']];
    for (let n = 0; n < 60; n++) {
      const doc: Record<string, unknown> = {};
      for (const [s, keys] of shapes.slice(0, 2 + (n % 5)).entries()) doc[`k${s}`] = Object.fromEntries(keys.map((k, i) => [k, n + i]));
      expect(stringifySorted(doc)).toBe(reference(doc));
    }
  });

  it('writes arrays with holes as null', () => {
    const holes = (n: number, at: number, v: unknown): unknown[] => Object.assign(new Array<unknown>(n), { [at]: v });
    expect(stringifySorted({ b: holes(3, 0, 1), a: { y: 1, x: holes(2, 1, 2) } })).toBe('{"a":{"x":[null,2],"y":1},"b":[1,null,null]}');
  });
});

const RUST_WS = '\t\n\v\f\r \u0085\u00A0\u1680\u2000\u2001\u2005\u200A\u2028\u2029\u202F\u205F\u3000';
const REFERENCE = new RegExp(`^[${RUST_WS}\u2000-\u200A]+|[${RUST_WS}\u2000-\u200A]+$`, 'g');

describe('rustTrim', () => {
  it('equals the regex definition on random strings of whitespace and non-whitespace', () => {
    const rand = rng(11);
    const alphabet = [...RUST_WS, 'a', 'é', '\uFEFF', '\u200B', '😀', 'x y'];
    for (let n = 0; n < 3000; n++) {
      let s = '';
      const len = Math.floor(rand() * 12);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      expect(rustTrim(s)).toBe(s.replace(REFERENCE, ''));
    }
  });

  it('keeps U+FEFF and removes U+0085, unlike String.prototype.trim', () => {
    expect(rustTrim('\uFEFFa\u0085')).toBe('\uFEFFa');
  });

  it('trims a text with a 200,000-space inner run quickly', () => {
    const s = ` a${' '.repeat(200_000)}b `;
    const t = performance.now();
    expect(rustTrim(s)).toBe(s.slice(1, -1));
    expect(performance.now() - t).toBeLessThan(50);
  });
});
