// Evaluation semantics: jsonpath-rust filter targets, existence, comparisons, selectors, path features.

import { describe, expect, it } from 'vitest';
import type { Json } from '../types.js';
import { compileJsonPath, compileJsonPathRule, compileJsonPathSelector } from './index.js';

const matches = (expr: string, doc: Json): boolean => compileJsonPath(expr).matches(doc);
const findAll = (expr: string, doc: Json): Json[] => compileJsonPath(expr).findAll(doc);

describe('filter target (jsonpath-rust FilterPath::find)', () => {
  it('tests an object node itself, not its children', () => {
    const doc = { attributes: { k: [[0, 10, 0.2]], other: { k: [[0, 1, 0.9]] } } };
    expect(findAll('$.attributes[?(@.k && @.k[0] && @.k[0][2] < 0.5)]', doc)).toEqual([doc.attributes]);
    expect(matches('$.attributes[?(@.k[0][2] > 0.5)]', doc)).toBe(false);
  });

  it('tests each element of an array', () => {
    const doc = { spans: [[0, 1, 0.9], [1, 2, 0.1], [2, 3, 0.7]] };
    expect(findAll('$.spans[?(@[2] > 0.5)]', doc)).toEqual([[0, 1, 0.9], [2, 3, 0.7]]);
  });

  it('tests a scalar node itself', () => {
    expect(findAll('$.n[?(@ > 3)]', { n: 5 })).toEqual([5]);
    expect(findAll('$.n[?(@ > 3)]', { n: 2 })).toEqual([]);
  });
});

describe('existence operands', () => {
  it.each([false, 0, [], null, '', {}])('a bare path is true when the key exists, even with value %j', (v) => {
    expect(matches('$.a[?(@.k)]', { a: { k: v } })).toBe(true);
    expect(matches('$.a.k', { a: { k: v } })).toBe(true);
  });

  it('a bare path is false when the key or index is missing', () => {
    expect(matches('$.a[?(@.k)]', { a: {} })).toBe(false);
    expect(matches('$.a[?(@.k[0])]', { a: { k: [] } })).toBe(false);
    expect(matches('$.a[?(!@.k)]', { a: {} })).toBe(true);
  });

  it('$-absolute operands look at the document root', () => {
    const doc = { limit: 3, items: [1, 4, 2, 5] };
    expect(findAll('$.items[?(@ > $.limit)]', doc)).toEqual([4, 5]);
    expect(findAll('$.items[?($.missing)]', doc)).toEqual([]);
  });
});

describe('comparisons', () => {
  it('compare numbers numerically: integer 1 equals 1.0', () => {
    const doc = JSON.parse('{"a": {"i": 1, "f": 1.0, "h": 0.5}}') as Json;
    expect(matches('$.a[?(@.i >= 1.0)]', doc)).toBe(true);
    expect(matches('$.a[?(@.i == 1.0)]', doc)).toBe(true);
    expect(matches('$.a[?(@.f == 1)]', doc)).toBe(true);
    expect(matches('$.a[?(@.i < 1.0)]', doc)).toBe(false);
    expect(matches('$.a[?(@.h <= 0.5)]', doc)).toBe(true);
    expect(matches('$.a[?(@.h > -1e-3)]', doc)).toBe(true);
    expect(matches('$.a[?(@.i > @.h)]', doc)).toBe(true);
  });

  it('a missing operand makes every comparison false, negated ones included', () => {
    for (const op of ['==', '!=', '<', '<=', '>', '>=', 'in', 'nin', 'size', 'anyOf', 'noneOf', 'subsetOf']) {
      const right = ['in', 'nin', 'anyOf', 'noneOf', 'subsetOf'].includes(op) ? '[1]' : '1';
      expect(matches(`$.a[?(@.missing ${op} ${right})]`, { a: {} }), op).toBe(false);
      expect(matches(`$.a[?(@.x ${op} @.missing)]`, { a: { x: 1 } }), op).toBe(false);
    }
    expect(matches("$.a[?(@.missing ~= 'x')]", { a: {} })).toBe(false);
  });

  it('an operand finding several nodes is not a single value', () => {
    expect(matches('$.a[?(@.xs[*] == 1)]', { a: { xs: [1] } })).toBe(true);
    expect(matches('$.a[?(@.xs[*] == 1)]', { a: { xs: [1, 1] } })).toBe(false);
  });

  it('ordering operators are false on non-numbers', () => {
    for (const v of ['5', true, null, [5], { v: 5 }]) {
      for (const op of ['<', '<=', '>', '>=']) expect(matches(`$.a[?(@.v ${op} 1)]`, { a: { v: v } })).toBe(false);
    }
    expect(matches("$.a[?(@.v > 'a')]", { a: { v: 'b' } })).toBe(false);
  });

  it('== and != are deep JSON equality', () => {
    const doc = { a: { o: { x: [1, { y: null }], z: 'q' }, s: 'hi', b: false } };
    expect(matches("$.a[?(@.s == 'hi')]", doc)).toBe(true);
    expect(matches('$.a[?(@.s == "hi")]', doc)).toBe(true);
    expect(matches('$.a[?(@.b == false)]', doc)).toBe(true);
    expect(matches('$.a[?(@.b != true)]', doc)).toBe(true);
    expect(matches('$.a[?(@.o.x == [1, 2])]', doc)).toBe(false);
    expect(matches('$[?(@.a.o == $.a.o)]', doc)).toBe(true);
    expect(matches('$.a[?(@.o.x[1] != @.o)]', doc)).toBe(true);
    expect(matches("$.a[?(@.o.x[0] == '1')]", doc)).toBe(false);
  });

  it('in / nin / anyOf / noneOf / subsetOf / size', () => {
    const doc = { a: { lang: 'en', tags: ['x', 'y'], s: 'héllo', n: 2, map: { p: 'en' } } };
    const cases: [string, boolean][] = [
      ["@.lang in ['en', 'de']", true],
      ["@.lang in ['fr']", false],
      ['@.lang in @.map', true], // an object right side looks at its values
      ["@.lang nin ['fr']", true],
      ["@.lang nin ['en']", false],
      ["@.lang nin 'en'", false], // wrong right-hand type: false, not "not in"
      ["@.tags anyOf ['y', 'z']", true],
      ["@.lang anyOf ['en']", true],
      ["@.tags anyOf ['z']", false],
      ["@.tags noneOf ['z']", true],
      ["@.tags noneOf ['x']", false],
      ["@.tags subsetOf ['x', 'y', 'z']", true],
      ["@.tags subsetOf ['x']", false],
      ['@.tags size 2', true],
      ['@.s size 6', true], // UTF-8 bytes, like Rust's str::len
      ['@.s size 5', false],
      ['@.map size 1', true],
      ['@.n size 2', false],
    ];
    for (const [cond, expected] of cases) expect(matches(`$.a[?(${cond})]`, doc), cond).toBe(expected);
  });

  it('~= searches with the regex and only matches strings', () => {
    const doc = { a: { s: 'Hello World', n: 5 } };
    expect(matches("$.a[?(@.s ~= 'o W')]", doc)).toBe(true);
    expect(matches("$.a[?(@.s ~= '^World')]", doc)).toBe(false);
    expect(matches("$.a[?(@.s ~= '(?i)^hello')]", doc)).toBe(true);
    expect(matches("$.a[?(@.n ~= '5')]", doc)).toBe(false);
    // Regex text is taken raw: `\d`, `\b` keep their regex meaning; only the quote is unescaped.
    expect(matches(String.raw`$.a[?(@.s ~= '^\d+$')]`, { a: { s: '123' } })).toBe(true);
    expect(matches(String.raw`$.a[?(@.s ~= '\bWorld\b')]`, doc)).toBe(true);
    expect(matches(String.raw`$.a[?(@.s ~= 'don\'t')]`, { a: { s: "I don't" } })).toBe(true);
    expect(matches(String.raw`$.a[?(@.s ~= '\\')]`, { a: { s: 'a\\b' } })).toBe(true);
    expect(matches(String.raw`$.a[?(@.s ~= '\\')]`, { a: { s: 'ab' } })).toBe(false);
  });

  it('|| and ! combine sub-filters', () => {
    const doc = { a: { x: 1 } };
    expect(matches('$.a[?(@.y || @.x == 1)]', doc)).toBe(true);
    expect(matches('$.a[?(!(@.y || @.x == 1))]', doc)).toBe(false);
    expect(matches('$.a[?((!@.y) && @.x)]', doc)).toBe(true);
  });
});

describe('path features', () => {
  const doc = { a: [10, 11, 12, 13, 14], o: { p: { k: 1 }, q: { k: 2, r: { k: 3 } } }, s: 'str' };
  it.each([
    ['$.a[0]', [10]],
    ['$.a[-1]', [14]],
    ['$.a[-6]', []],
    ['$.a[5]', []],
    ['$.a[1:3]', [11, 12]],
    ['$.a[::2]', [10, 12, 14]],
    ['$.a[-2:]', [13, 14]],
    ['$.a[3:1:-1]', [13, 12]],
    ['$.a[::-2]', [14, 12, 10]],
    ['$.a[0,-1,9]', [10, 14]],
    ["$.o['p','q','none']", [{ k: 1 }, { k: 2, r: { k: 3 } }]],
    ['$.o.*.k', [1, 2]],
    ['$.o[*].k', [1, 2]],
    ['$..k', [1, 2, 3]],
    ['$.o..[?(@.k > 1)].k', [2, 3]],
    ['$.a.length', []],
    ['$.s.length', []],
    ['$.s[0]', []],
    ['$.a.0', []],
    ['$.a[?(@ >= 13)]', [13, 14]],
  ])('%s', (expr, expected) => {
    expect(findAll(expr, doc)).toEqual(expected);
  });

  it('$..* yields every node below the root: the children of each node, nodes visited in pre-order', () => {
    expect(findAll('$..*', { a: { b: 1 }, c: [2, 3] })).toEqual([{ b: 1 }, [2, 3], 1, 2, 3]);
  });
});

describe('public API', () => {
  it('rules answer per document and never throw on missing data', () => {
    const rule = compileJsonPathRule('$.attributes[?(@.k[0][2] < 0.5)]', 'include');
    expect(rule.syntax).toBe('jsonpath');
    expect(rule.role).toBe('include');
    const docs: Json[] = [{ attributes: { k: [[0, 1, 0.1]] } }, { attributes: { k: 'x' } }, {}, null, 5, 'x', [], { attributes: null }];
    expect(rule.evaluate(docs)).toEqual([true, false, false, false, false, false, false, false]);
  });

  it('selectors give null, the single node, or an array of nodes', () => {
    const sel = compileJsonPathSelector('$.attributes.spans[*]');
    const docs: Json[] = [{ attributes: { spans: [] } }, { attributes: { spans: [[0, 1, 1]] } }, { attributes: { spans: [[0, 1, 1], [2, 3, 0]] } }, {}];
    expect(sel.select(docs)).toEqual([null, [0, 1, 1], [[0, 1, 1], [2, 3, 0]], null]);
    // Found values are the document's own; an array value found once is returned as is.
    expect(compileJsonPathSelector('$.x').select([{ x: [1, 2] }])).toEqual([[1, 2]]);
  });
});
