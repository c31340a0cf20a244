// Hostile expressions and documents: rejected at compile time or inert, and always bounded.

import { afterAll, describe, expect, it } from 'vitest';
import { FilterCompileError, FilterEvalError, type Json } from '../types.js';
import { compileJsonPath, compileJsonPathRule, compileJsonPathSelector, MAX_EXPR_BYTES, parseJsonPath } from './index.js';

function rejection(expr: string): string {
  try {
    parseJsonPath(expr);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterCompileError);
    return (e as Error).message;
  }
  throw new Error(`accepted: ${expr.slice(0, 80)}`);
}

const select = (expr: string, doc: Json): Json => compileJsonPathSelector(expr).select([doc])[0] as Json;

afterAll(() => {
  // Nothing anywhere in this file may have written to the shared prototypes.
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
});

describe('code injection', () => {
  it('a function call inside a filter is a syntax error, not code', () => {
    expect(rejection("$[?(@.constructor.constructor('return process')())]")).toMatch(/function calls.*at offset 29/s);
    expect(rejection('$[?(@.a == process.exit())]')).toContain('expected a path');
    expect(rejection("$[(@.length-1)]")).toContain('expected');
  });
});

describe('prototype properties are never reachable', () => {
  it.each(['$.constructor', '$.__proto__', '$.__proto__.polluted', '$.toString', '$.hasOwnProperty', '$..__proto__', '$..constructor', '$.a.prototype'])(
    '%s finds nothing on ordinary documents',
    (expr) => {
      const docs: Json[] = [{}, { a: { b: [1, { c: 'x' }] } }, [], 'str', 5];
      expect(compileJsonPathRule(expr, 'include').evaluate(docs)).toEqual(docs.map(() => false));
    },
  );

  it('inside filters too', () => {
    expect(select('$[?(@.constructor)]', { a: 1 })).toBeNull();
    expect(select("$[?(@.__proto__ == 'x')]", { a: 1 })).toBeNull();
    expect(select('$.a[?(@.length > 0)]', { a: 'text' })).toBeNull();
  });

  it('own keys with those names are ordinary data, and reading them pollutes nothing', () => {
    const doc = JSON.parse('{"constructor": 5, "__proto__": {"polluted": true}, "x": {"__proto__": [1]}}') as Json;
    expect(select('$.constructor', doc)).toBe(5);
    expect(select('$.__proto__.polluted', doc)).toBe(true);
    expect(select('$..__proto__', doc)).toEqual([{ polluted: true }, [1]]);
    expect(select('$[?(@.__proto__.polluted == true)]', doc)).toBe(doc);
  });
});

describe('resource limits at compile time', () => {
  it(`rejects expressions over ${MAX_EXPR_BYTES} bytes before parsing`, () => {
    expect(rejection('$' + '.a'.repeat(50_000))).toContain('longer than 65536 bytes');
    expect(rejection(`$[?(@.a == '${'x'.repeat(100_000)}')]`)).toContain('longer than');
    // 4-byte characters count as 4 bytes: 20,000 of them is 80,000 bytes.
    expect(rejection(`$['${'😀'.repeat(20_000)}']`)).toContain('longer than');
    // Just under the limit is fine.
    expect(() => parseJsonPath(`$['${'x'.repeat(MAX_EXPR_BYTES - 10)}']`)).not.toThrow();
  });

  it('rejects 10,000 nested parentheses, negations, array literals and filters without overflowing', () => {
    const n = 10_000;
    expect(rejection(`$[?(${'('.repeat(n)}@.a${')'.repeat(n)})]`)).toContain('nesting deeper than 128');
    expect(rejection(`$[?(${'!'.repeat(n)}@.a)]`)).toContain('nesting deeper than 128');
    expect(rejection(`$[?(@.a in ${'['.repeat(n)}${']'.repeat(n)})]`)).toContain('nesting deeper than 128');
    expect(rejection(`$${'[?(@.a'.repeat(2_000)}${')]'.repeat(2_000)}`)).toContain('nesting deeper than 128');
    // 100 levels is legal and evaluates.
    expect(compileJsonPath(`$[?(${'('.repeat(100)}@.a${')'.repeat(100)})]`).matches({ a: 1 })).toBe(true);
  });

  it('rejects paths with more general segments than the evaluator recurses through', () => {
    expect(rejection('$' + '.*'.repeat(300))).toContain('more than 256');
    // Plain steps are walked in a loop, so long plain paths are fine.
    expect(compileJsonPath('$' + '.a'.repeat(5_000)).matches({})).toBe(false);
  });

  it.each(['(a+)+$', '(a*)*$', '((ab)+c)*$', '(\\w+\\s?)*$', '(a{2,})+$', '(?:x+y?)+$', '(a|b+){3,}$', '(.*a){20}$', '(a|aa)+$', '(\\w|(a|a))+(?:a|b)$', '(a|a)*b'])(
    'runs the catastrophic-backtracking regex %s in linear time (RE2)',
    (re) => {
      const rule = compileJsonPathRule(`$[?(@.x ~= '${re}')]`, 'include');
      const start = performance.now();
      rule.evaluate([{ x: 'a'.repeat(100_000) + '!' }, { x: 'ab'.repeat(50_000) + '!' }]);
      expect(performance.now() - start).toBeLessThan(2_000);
    },
  );

  it.each([
    ['(a)\\1', /backreferences are not supported/],
    ['(?<n>a)\\k<n>', /backreferences are not supported/],
    ['a(?=b)', /lookaround is not supported/],
    ['(?<!b)a', /lookaround is not supported/],
    ['(?x) a', /unsupported Perl syntax/],
    ['[a[b]]', /nested character classes/],
    ['[a-z&&[^aeiou]]', /set operations/],
    ['[^\\Wx]', /negated character class/],
  ])('refuses %s, which RE2 lacks, with a reason', (re, why) => {
    expect(rejection(`$[?(@.x ~= '${re}')]`)).toMatch(why);
  });

  it('rejects over-long and invalid regexes, accepts ordinary ones', () => {
    expect(rejection(`$[?(@.x ~= '${'a'.repeat(1001)}')]`)).toContain('limit is 1000');
    expect(rejection("$[?(@.x ~= '(unclosed')]")).toContain('invalid regex');
    for (const ok of ['^[a-z]+$', '(ab)+', 'a+b*c?', '(?i)lorem ipsum', '[(+*)]+', '\\(a+\\)+', '(a?){1}x', '(?P<w>x)', '[[:alpha:]]+']) {
      expect(() => parseJsonPath(`$[?(@.x ~= '${ok}')]`), ok).not.toThrow();
    }
  });

  it("keeps Rust regex's Unicode classes: \\d, \\w and \\s beyond ASCII", () => {
    const m = (re: string, x: string): boolean => compileJsonPathRule(`$[?(@.x ~= '${re}')]`, 'include').evaluate([{ x }])[0] as boolean;
    expect(m('^\\d+$', '٣٤')).toBe(true); // Arabic-Indic digits are Nd
    expect(m('^\\w+$', 'café_Ⓐ')).toBe(true);
    expect(m('^\\W$', 'é')).toBe(false);
    expect(m('^[\\W_]+$', '-_ ')).toBe(true);
    expect(m('^[\\w-]+$', 'naïve-x')).toBe(true);
    expect(m('^\\s$', '\u3000')).toBe(true);
    expect(m('^\\S$', '\u00a0')).toBe(false);
    expect(m('(?i)^ÉTÉ$', 'été')).toBe(true);
    expect(m('^a.b$', 'a\nb')).toBe(false);
    expect(m('(?s)^a.b$', 'a\nb')).toBe(true);
    expect(m('(?m)^b$', 'a\nb')).toBe(true);
    expect(m('^b$', 'a\nb')).toBe(false);
  });

  it('evaluates an accepted regex in linear-looking time on a long adversarial string', () => {
    const rule = compileJsonPathRule("$[?(@.x ~= '^(ab)+$')]", 'include');
    const start = performance.now();
    expect(rule.evaluate([{ x: 'ab'.repeat(100_000) + 'a' }])).toEqual([false]);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe('hostile documents', () => {
  function chain(depth: number): Json {
    let doc: Json = { leaf: true };
    for (let i = 0; i < depth; i++) doc = i % 2 === 0 ? { k: doc } : [doc];
    return doc;
  }

  it('$..* over a 100,000-deep document finishes and finds every node', () => {
    const doc = chain(100_000);
    const start = performance.now();
    const found = compileJsonPath('$..*').findAll(doc);
    expect(found).toHaveLength(100_001);
    expect(compileJsonPath('$..leaf').findAll(doc)).toEqual([true]);
    expect(compileJsonPathRule('$..[?(@.leaf == true)]', 'include').evaluate([doc])).toEqual([true]);
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  it('deep equality between two deep values does not overflow', () => {
    const doc = { a: chain(50_000), b: chain(50_000) };
    expect(compileJsonPathRule('$[?(@.a == @.b)]', 'include').evaluate([doc])).toEqual([true]);
  });

  it('a runaway evaluation stops with FilterEvalError naming the document', () => {
    const rule = compileJsonPathRule('$..*..*..*', 'include');
    const selector = compileJsonPathSelector('$..*..*..*');
    const docs: Json[] = [{ a: 1 }, null, chain(3_000)];
    expect(() => rule.evaluate(docs.slice(0, 2))).not.toThrow();
    // `matches` stops at the first hit, so only the collecting selector can run away here.
    expect(rule.evaluate(docs)).toEqual([false, false, true]); // a scalar has no descendants
    let error: unknown;
    try {
      selector.select(docs);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FilterEvalError);
    expect((error as FilterEvalError).index).toBe(2);
    expect((error as FilterEvalError).expr).toBe('$..*..*..*');
    expect((error as FilterEvalError).message).toContain('more than 10000000');
  });
});
