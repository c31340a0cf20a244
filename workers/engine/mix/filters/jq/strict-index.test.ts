import { afterAll, describe, expect, it } from 'vitest';
import type { Json } from '../types.js';
import { compileOnly, selectorProgram } from './program.js';
import { JqRunner } from './runner.js';
import { rewriteStrictIndexing, STRICT_PRELUDE } from './strict-index.js';

const runner = new JqRunner();
afterAll(() => runner.dispose());

type Outcome = { out: Json[] } | { error: string };

/** All outputs of `program` (already rewritten or not) on `doc`, or its error message. */
function run(program: string, doc: Json): Outcome {
  const r = runner.run(selectorProgram(program), JSON.stringify(doc), 5000);
  if (r.kind !== 'ok') throw new Error(`jq run failed: ${JSON.stringify(r)}`);
  const v = JSON.parse(r.stdout) as Json;
  return Array.isArray(v) ? { out: v } : { error: String(v) };
}
const strict = (expr: string, doc: Json): Outcome => run(rewriteStrictIndexing(expr), doc);
const stock = (expr: string, doc: Json): Outcome => run(expr, doc);

describe('rewriteStrictIndexing: source in, source out', () => {
  const G = '__assay_ix';
  it.each([
    ['.a', `${G}(.; "\\"a\\"").a`],
    ['.a.b', `${G}(${G}(.; "\\"a\\"").a; "\\"b\\"").b`],
    ['.a[0][-1]', `${G}(${G}(${G}(.; "\\"a\\"").a; "0")[0]; "-1")[-1]`],
    ['.[0]', `${G}(.; "0").[0]`],
    ['."a b".c', `${G}(${G}(.; "\\"a b\\"")."a b"; "\\"c\\"").c`],
    ['$x.a', `${G}($x; "\\"a\\"").a`],
    ['(.).a', `${G}((.); "\\"a\\"").a`],
    ['f(.a).b', `${G}(f(${G}(.; "\\"a\\"").a); "\\"b\\"").b`],
    ['.[.k]', `${G}(.; ".k").[${G}(.; "\\"k\\"").k]`],
    ['.a[1:]', `${G}(${G}(.; "\\"a\\"").a; "1:")[1:]`],
    ['.a .b', `${G}(${G}(.; "\\"a\\"").a; "\\"b\\"") .b`],
    ['.a?.b', `${G}(.a?; "\\"b\\"").b`],
    ['.a.b?', `${G}(.; "\\"a\\"").a.b?`],
    ['.a[]', `${G}(.; "\\"a\\"").a[]`],
    ['{a: .b}', `{a: ${G}(.; "\\"b\\"").b}`],
    ['{if: 1}.if', `${G}({if: 1}; "\\"if\\"").if`],
    ['"x\\(.a)y"', `"x\\(${G}(.; "\\"a\\"").a)y"`],
    ['@base64 "\\(.a)"', `@base64 "\\(${G}(.; "\\"a\\"").a)"`],
    ['.a # note\n| .b', `${G}(.; "\\"a\\"").a # note\n| ${G}(.; "\\"b\\"").b`],
    ['.a.["b"]', `${G}(${G}(.; "\\"a\\"").a; "\\"b\\"").["b"]`],
    ['."\\(.k)"', `${G}(.; "\\"\\\\(.k)\\"")."\\(${G}(.; "\\"k\\"").k)"`],
  ])('%j', (src, out) => {
    expect(rewriteStrictIndexing(src)).toBe(out);
  });

  it.each([
    '.attributes?.pii?.email?',
    '.[]',
    '.[]?',
    '. as $x | $x',
    'reduce .[] as $x (0; . + $x)',
    '.. | numbers',
    '@base64 "x"',
    'if . then 1 elif . == 2 then 2 else 3 end',
    'def f(g; $x): [g, $x]; f(1; 2)',
    '[1, 2] | length > 0 and all',
  ])('leaves %j unchanged', (src) => {
    expect(rewriteStrictIndexing(src)).toBe(src);
  });

  it('shortens long index labels', () => {
    const key = 'k'.repeat(100);
    expect(rewriteStrictIndexing(`.["${key}"]`)).toContain(`"\\"${'k'.repeat(59)}…"`);
  });
});

describe('strict indexing on documents', () => {
  it('fails where jaq fails and stock jq yields null', () => {
    expect(stock('.attributes.b.b != null', { attributes: { a: 1 } })).toEqual({ out: [false] });
    expect(strict('.attributes.b.b != null', { attributes: { a: 1 } })).toEqual({ error: 'cannot index null with "b"' });
    expect(strict('.attributes.b.b != null', { attributes: { b: { b: 0 } } })).toEqual({ out: [true] });
    expect(strict('.a[0][-1]', { a: [] })).toEqual({ error: 'cannot index null with -1' });
    expect(strict('.a[0][-1]', { a: [[1, 2]] })).toEqual({ out: [2] });
    expect(strict('.a[1:]', {})).toEqual({ error: 'cannot index null with 1:' });
    expect(strict('.a[1:]', { a: [1, 2] })).toEqual({ out: [[2]] });
    expect(strict('{} as $x | $x.a.b', null)).toEqual({ error: 'cannot index null with "b"' });
    expect(strict('"v=\\(.a.b)"', {})).toEqual({ error: 'cannot index null with "b"' });
    expect(strict('{x: .a.b}', {})).toEqual({ error: 'cannot index null with "b"' });
  });

  it('keeps `?` steps lenient; a `?` guards its own step only (jq 1.7 and jaq agree)', () => {
    expect(strict('.attributes?.pii?.email?', {})).toEqual({ out: [null] });
    expect(strict('.a?.b?', {})).toEqual({ out: [null] });
    expect(strict('.a?.b', {})).toEqual({ error: 'cannot index null with "b"' });
    expect(strict('.a.b?', {})).toEqual({ out: [null] });
    expect(stock('.a.b?', null)).toEqual({ out: [null] });
    expect(stock('(error("x")).b?', null)).toEqual({ error: 'x' });
    expect(strict('.a.b?', null)).toEqual({ error: 'cannot index null with "a"' });
    expect(strict('.a.b?', { a: { b: 3 } })).toEqual({ out: [3] });
  });

  it('keeps jq’s own error for iterating null', () => {
    expect(strict('.a[]', {})).toEqual({ error: 'Cannot iterate over null (null)' });
    expect(strict('.a[]?', {})).toEqual({ out: [] });
  });

  it('evaluates index expressions against the chain’s input, as jq does', () => {
    expect(strict('.[.k]', { k: 'x', x: 5 })).toEqual({ out: [5] });
    expect(strict('.a[.k]', { k: 'x', a: { x: 7 } })).toEqual({ out: [7] });
    expect(strict('.a[.k]', { k: 'x' })).toEqual({ error: 'cannot index null with .k' });
    expect(strict('."\\(.k)"', { k: 'x', x: 5 })).toEqual({ out: [5] });
    expect(strict('.a."\\(.k)"', { k: 'x' })).toEqual({ error: 'cannot index null with "\\(.k)"' });
  });

  it('still works as a path expression', () => {
    const doc = { a: { b: 1, c: [1, 2] } };
    expect(strict('path(.a.b)', doc)).toEqual({ out: [['a', 'b']] });
    expect(strict('[paths(type == "number")]', doc)).toEqual(stock('[paths(type == "number")]', doc));
    expect(strict('.a.b |= . + 1', doc)).toEqual({ out: [{ a: { b: 2, c: [1, 2] } }] });
    expect(strict('.a.c[0] = 9', doc)).toEqual({ out: [{ a: { b: 1, c: [9, 2] } }] });
    expect(strict('del(.a.c[1])', doc)).toEqual({ out: [{ a: { b: 1, c: [1] } }] });
    expect(strict('to_entries | map(.value.b)', doc)).toEqual({ out: [[1]] });
    // The one deliberate change: updating through a missing key no longer creates it.
    expect(strict('.x.y = 1', doc)).toEqual({ error: 'cannot index null with "y"' });
  });

  it('handles definitions, reductions, conditionals, patterns and try', () => {
    const doc = { a: [{ v: 1 }, { v: 2 }], b: null, s: 'x' };
    expect(strict('def f: .a[0].v; f + 1', doc)).toEqual({ out: [2] });
    expect(strict('reduce .a[] as $x (0; . + $x.v)', doc)).toEqual({ out: [3] });
    expect(strict('if .b then .b.c else "none" end', doc)).toEqual({ out: ['none'] });
    expect(strict('.a as [$p, $q] | $q.v', doc)).toEqual({ out: [2] });
    expect(strict('try .b.c catch "caught"', doc)).toEqual({ out: ['caught'] });
    expect(strict('[.a[] | .v] | add', doc)).toEqual({ out: [3] });
    expect(strict('{if: .s}.if', doc)).toEqual({ out: ['x'] });
    expect(strict('.a | map(.v * 2)', doc)).toEqual({ out: [[2, 4]] });
  });

  it('agrees with stock jq whenever nothing indexes null (differential check)', () => {
    const exprs = [
      '.a', '.a.b', '.a[0]', '.a[-1][0]', '.a | length', '[.a[]?]', '.a.b? // "d"', '(.a | type) == "array"',
      '.a[0:2]', '[.. | numbers]', '.a as $x | $x', '"\\(.a)"', '.a | tostring', '[.a[]? | .[0]?]',
      'any(.a[]?; . == 1)', '.a.b.c?', 'keys? // []', '.a | if type == "object" then .b else null end',
    ];
    const docs: Json[] = [{}, { a: null }, { a: [] }, { a: [[1, 2], [3]] }, { a: { b: { c: 1 } } }, { a: 'str' }, { a: [1, { b: 2 }] }, []];
    for (const expr of exprs) {
      for (const doc of docs) {
        const s = strict(expr, doc);
        const j = stock(expr, doc);
        if ('error' in s && s.error.startsWith('cannot index null')) {
          expect('out' in j, `${expr} on ${JSON.stringify(doc)}: stock jq should succeed`).toBe(true);
        } else {
          expect(s, `${expr} on ${JSON.stringify(doc)}`).toEqual(j);
        }
      }
    }
  });

  it('produces programs that compile for every accepted construct', () => {
    for (const expr of ['.a.b', '$__x', '.a[.b[.c]]', '[.a, .b?, .c[0]?]', '{"k\\(.a.b)": .c[1:2]}', '. as {a: $v} | $v.w']) {
      const program = `${STRICT_PRELUDE}\n${rewriteStrictIndexing(expr)}`;
      const r = runner.run(compileOnly(program), 'null', 5000);
      // `$__x` is undefined in both forms: the rewrite must not turn a bad program into a good one or vice versa.
      const original = runner.run(compileOnly(expr), 'null', 5000);
      expect(r.kind, expr).toBe(original.kind);
    }
  });
});
