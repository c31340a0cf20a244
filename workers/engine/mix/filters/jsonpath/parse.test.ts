// Parser tests: every syntax form to its AST, canonical printing, and offset-bearing errors.

import { describe, expect, it } from 'vitest';
import { FilterCompileError } from '../types.js';
import type { FilterExpr, PathExpr, Selector } from './ast.js';
import { formatJsonPath, parseJsonPath, plainSteps } from './index.js';

const name = (n: string): Selector => ({ kind: 'name', name: n });
const child = (...selectors: Selector[]) => ({ kind: 'child' as const, selectors });
const at = (...names: (string | number)[]): PathExpr => ({
  kind: 'path',
  start: 'current',
  segments: names.map((n) => child(typeof n === 'string' ? name(n) : { kind: 'index', index: n })),
});
const filterOf = (expr: string): FilterExpr => {
  const last = parseJsonPath(expr).segments.at(-1)?.selectors[0];
  if (last?.kind !== 'filter') throw new Error(`no filter in ${expr}`);
  return last.test;
};

function compileError(expr: string): FilterCompileError {
  try {
    parseJsonPath(expr);
  } catch (e) {
    if (e instanceof FilterCompileError) return e;
    throw e;
  }
  throw new Error(`expected ${expr} to be rejected`);
}

describe('paths', () => {
  it('parses keys, quoted keys, indexes and the stray $@ prefix', () => {
    const expected: PathExpr = {
      kind: 'path',
      start: 'root',
      segments: [child(name('a')), child(name('b c')), child(name("it's")), child({ kind: 'index', index: -1 })],
    };
    expect(parseJsonPath(`$.a['b c']["it's"][-1]`)).toEqual(expected);
    expect(parseJsonPath(`$@.a['b c']['it\\'s'][-1]`)).toEqual(expected);
    expect(parseJsonPath('  $ .a [\'b c\'] ["it\'s"] [ -1 ]  ')).toEqual(expected);
    expect(parseJsonPath('$')).toEqual({ kind: 'path', start: 'root', segments: [] });
  });

  it('parses wildcards, descendants, slices and unions', () => {
    const p = parseJsonPath("$.*[*]..k..*..[0]['a','b'][0,-1][1:3][::2][-2:][:-1:1][5:1:-1]");
    expect(p.segments).toEqual([
      child({ kind: 'wildcard' }),
      child({ kind: 'wildcard' }),
      { kind: 'descendant', selectors: [name('k')] },
      { kind: 'descendant', selectors: [{ kind: 'wildcard' }] },
      { kind: 'descendant', selectors: [{ kind: 'index', index: 0 }] },
      child(name('a'), name('b')),
      child({ kind: 'index', index: 0 }, { kind: 'index', index: -1 }),
      child({ kind: 'slice', start: 1, end: 3, step: null }),
      child({ kind: 'slice', start: null, end: null, step: 2 }),
      child({ kind: 'slice', start: -2, end: null, step: null }),
      child({ kind: 'slice', start: null, end: -1, step: 1 }),
      child({ kind: 'slice', start: 5, end: 1, step: -1 }),
    ]);
  });

  it('decodes string escapes', () => {
    expect(parseJsonPath(String.raw`$['a\'b\"c\\d\/e\n\u00e9']`).segments[0]).toEqual(child(name('a\'b"c\\d/e\né')));
  });

  it('reports plain steps only for key/index paths', () => {
    expect(plainSteps(parseJsonPath("$.a[0]['b c'][-2]"))).toEqual(['a', 0, 'b c', -2]);
    expect(plainSteps(parseJsonPath('$.a[*]'))).toBeNull();
    expect(plainSteps(parseJsonPath('$..a'))).toBeNull();
    expect(plainSteps(parseJsonPath("$['a','b']"))).toBeNull();
  });
});

describe('filter expressions', () => {
  it('parses the guard idiom into and(exists, exists, compare)', () => {
    expect(filterOf('$.attributes[?(@.k && @.k[0] && @.k[0][2] < 0.5)]')).toEqual({
      kind: 'and',
      operands: [
        { kind: 'exists', path: at('k') },
        { kind: 'exists', path: at('k', 0) },
        { kind: 'compare', op: '<', left: at('k', 0, 2), right: { kind: 'literal', value: 0.5 } },
      ],
    });
  });

  it('gives || lower precedence than && and honours parentheses and !', () => {
    expect(filterOf('$[?(@.a || @.b && @.c)]')).toEqual({
      kind: 'or',
      operands: [{ kind: 'exists', path: at('a') }, { kind: 'and', operands: [{ kind: 'exists', path: at('b') }, { kind: 'exists', path: at('c') }] }],
    });
    expect(filterOf('$[?((@.a || @.b) && !(@.c))]')).toEqual({
      kind: 'and',
      operands: [
        { kind: 'or', operands: [{ kind: 'exists', path: at('a') }, { kind: 'exists', path: at('b') }] },
        { kind: 'not', operand: { kind: 'exists', path: at('c') } },
      ],
    });
    expect(filterOf('$[?(!@.a)]')).toEqual({ kind: 'not', operand: { kind: 'exists', path: at('a') } });
    // The RFC 9535 form without the parentheses parses to the same tree.
    expect(filterOf('$[?@.a > 1]')).toEqual(filterOf('$[?(@.a > 1)]'));
  });

  it('parses every operator and literal form', () => {
    const ops = ['==', '!=', '<', '<=', '>', '>=', 'in', 'nin', 'size', 'anyOf', 'noneOf', 'subsetOf'] as const;
    for (const op of ops) {
      expect(filterOf(`$[?(@.x ${op} 1)]`)).toMatchObject({ kind: 'compare', op });
    }
    expect(filterOf("$[?(@.x ~= '^a.*z$')]")).toMatchObject({ op: '~=', right: { value: '^a.*z$' } });
    const lit = (src: string): unknown => {
      const e = filterOf(`$[?(@.x == ${src})]`);
      return e.kind === 'compare' && e.right.kind === 'literal' ? e.right.value : undefined;
    };
    expect(lit('-1.5e3')).toBe(-1500);
    expect(lit('2E-2')).toBe(0.02);
    expect(lit("'single'")).toBe('single');
    expect(lit('"double"')).toBe('double');
    expect(lit('true')).toBe(true);
    expect(lit('false')).toBe(false);
    expect(lit('null')).toBeNull();
    expect(lit("[1, 'a', [null, true], []]")).toEqual([1, 'a', [null, true], []]);
  });

  it('parses $-absolute operands, bare @ and @[...] paths', () => {
    expect(filterOf("$.a[?(@ == $.b[0])]")).toEqual({
      kind: 'compare',
      op: '==',
      left: { kind: 'path', start: 'current', segments: [] },
      right: { kind: 'path', start: 'root', segments: [child(name('b')), child({ kind: 'index', index: 0 })] },
    });
    expect(filterOf("$[?(@['a b'] > 0)]")).toMatchObject({ left: at('a b') });
  });
});

describe('canonical printing', () => {
  const samples = [
    '$@.attributes[?(@.value1 && @.value1[0] && @.value1[0][2] >= 1.0)]',
    "$..['a b'][*][0,-1][1:3:2][?(@.x in ['a', \"b\"] || !(@.y) && $.z.w size 3)]",
    "$.a[?((@.b || @.c) && @.d ~= '(?i)^x+$')]",
    "$['\\u0001\\'x']..*",
    String.raw`$[?(@.d ~= '^\d+\'\\x"$')]`,
  ];
  it.each(samples)('parse(format(parse(%s))) is the same tree', (src) => {
    const ast = parseJsonPath(src);
    expect(parseJsonPath(formatJsonPath(ast))).toEqual(ast);
  });
});

describe('errors point at the offending offset', () => {
  it.each([
    ['$.a[', 4, 'expected'],
    ['$.a[?(@.x < )]', 12, 'expected a path'],
    ['$.a[?(@.x = 1)]', 10, "use '=='"],
    ['$.a[?(@.x === 1)]', 10, "use '=='"],
    ['$.a[?(@.x like 1)]', 10, "unknown operator 'like'"],
    ['$.a[?(@.x)', 10, "']'"],
    ["$.a['unterminated]", 4, 'unterminated string'],
    ['$.a[01]', 4, 'leading zeros'],
    ['$.a[1:2:0]', 4, 'step must not be 0'],
    ['$.a.', 4, 'expected a key'],
    ['@.a', 0, "must start with '$'"],
    ['$.a b', 4, "unexpected 'b'"],
    ['$[?(true)]', 8, 'literal on its own'],
    ['$[?(!@.a || @.b)]', 4, "ambiguous '!'"],
    ['$[?(@.x ~= @.y)]', 11, 'quoted regex literal'],
    ['$[?(@.x == 1e999)]', 11, 'out of range'],
    ["$['\\q']", 3, 'unknown escape'],
  ])('%s', (src, offset, fragment) => {
    const e = compileError(src);
    expect(e.expr).toBe(src);
    expect(e.message).toContain(fragment);
    expect(e.message).toContain(`at offset ${offset}`);
  });
});
