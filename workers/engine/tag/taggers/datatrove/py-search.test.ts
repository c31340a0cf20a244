// Python `re.search` for user patterns: CPython's verdicts on RE2 and on the JS fallback, linear time, and a bounded backtracking path with clear errors.
import { describe, expect, it } from 'vitest';
import { growthRatio } from '../../../../../reliability/fuzz-growth.js';
import { isAssayError } from '../../../errors.js';
import type { TagSpan } from '../../types.js';
import { compileRe2Search } from './py-re2.js';
import { pythonVerdicts, randomCases, readFixture, type PyCase } from './py-regex-gen.js';
import { parsePythonRegex, toJsRegExp } from './py-regex.js';
import { BUDGET_BASE_MS, budgetMs, compilePythonSearch } from './py-search.js';
import { regexFilter } from './regex-filter.js';
import { BudgetedRegExp } from './regex-budget.js';

/** Every disagreement with CPython: a verdict on a text, or accepting / refusing a pattern Python refuses / accepts. */
function disagreements(cases: PyCase[]): { wrong: string[]; re2: number; fallback: number } {
  const wrong: string[] = [];
  let re2 = 0;
  let fallback = 0;
  for (const c of cases) {
    let parsed;
    let js: RegExp;
    try {
      parsed = parsePythonRegex(c.p);
      const src = toJsRegExp(parsed);
      js = new RegExp(src.source, src.flags);
    } catch (e) {
      if (c.error === undefined) wrong.push(`${JSON.stringify(c.p)}: Python compiles it, we refuse it: ${(e as Error).message}`);
      continue;
    }
    if (c.error !== undefined) {
      wrong.push(`${JSON.stringify(c.p)}: Python refuses it (${c.error}), we accept it`);
      continue;
    }
    const linear = compileRe2Search(parsed);
    if ('why' in linear) fallback++;
    else re2++;
    c.t.forEach((text, k) => {
      const want = c.hit?.[k] === 1;
      if (js.test(text) !== want) wrong.push(`JS ${JSON.stringify(c.p)} on ${JSON.stringify(text)}: Python says ${want}`);
      if (!('why' in linear) && linear.test(text) !== want) wrong.push(`RE2 ${JSON.stringify(c.p)} on ${JSON.stringify(text)}: Python says ${want}`);
    });
  }
  return { wrong, re2, fallback };
}

describe('agrees with CPython re', () => {
  it('on the fixture of 1,000 random patterns × 8 texts (CPython 3.11), on RE2 and on the JS fallback', () => {
    const { python, cases } = readFixture();
    expect(python).toMatch(/^3\./);
    const r = disagreements(cases);
    expect(r.wrong.slice(0, 10)).toEqual([]);
    // Both engines are exercised: most patterns run on RE2, lookahead and backreferences on the fallback.
    expect(r.re2).toBeGreaterThan(400);
    expect(r.fallback).toBeGreaterThan(50);
  });

  it('on fresh random patterns, asked of python3 itself (skipped without python3)', (ctx) => {
    const py = pythonVerdicts(randomCases(2, 1000));
    if (py === null) return ctx.skip();
    expect(disagreements(py.cases).wrong.slice(0, 10)).toEqual([]);
  });

  it.each([
    ['\\bcafé\\b', 'un café noir', true],
    ['\\bé', 'xé', false], // é is a word character in Python
    ['end$', 'the end\n', true],
    ['end$', 'the end\n\n', false],
    ['(?m)^b', 'a\rb', false], // only \n ends a line in Python
    ['^.$', '\r', true],
    ['\\B', '', false], // sre: \B never matches an empty string
    ['a{,2}b', 'aab', true],
    ['a{}', 'a{}', true],
    ['[\\b]', '\b', true],
    ['\\101(?#comment)', 'A', true],
    ['😀\\b', 'a😀b', true],
    ['😀\\b', 'a😀 ', false],
  ])('%s on %j is %s', (pattern, text, want) => {
    expect(compilePythonSearch(pattern).test(text)).toBe(want);
  });
});

describe('which engine', () => {
  it.each([
    ['(a|aa)+$', 're2', null],
    ['(?i)\\bcopyright\\b', 're2', null],
    ['(?<=a)b', 're2', null],
    ['a{1000}', 're2', null],
    ['(?i)copyright', 'regexp', null],
    ['^\\d\\d[.]\\w$', 'regexp', null],
    ['a'.repeat(65), 're2', null],
    ['a(?=b)', 'backtracking', 'lookahead'],
    ['(a)\\1', 'backtracking', 'backreferences'],
    ['a{1001}', 'backtracking', 'RE2 refuses it (invalid repeat count: `{1001}`)'],
  ])('%s runs on %s', (pattern, engine, why) => {
    const s = compilePythonSearch(pattern);
    expect(s.engine).toBe(engine);
    expect(s.why).toBe(why);
    s.close();
  });

  it.each([
    ['a**', /multiple repeat/],
    ['(?i:x)', /scoped inline flags/],
    ['a*+', /possessive/],
    ['(?>a)', /atomic groups/],
    ['\\q', /bad escape \\q/],
    ['(a', /unterminated subpattern/],
    ['[z-a]', /bad character range/],
  ])('%s is a CONFIG error naming regex_exp', (pattern, why) => {
    const err = (() => {
      try {
        compilePythonSearch(pattern);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(isAssayError(err) && err.code === 'CONFIG' && err.field === 'regex_exp').toBe(true);
    expect((err as Error).message).toMatch(why);
  });
});

const ANSWER_MS = 2_000;
const timed = <T>(f: () => T): { value: T; ms: number } => {
  const t = performance.now();
  const value = f();
  return { value, ms: performance.now() - t };
};

describe('catastrophic patterns', () => {
  it.each([
    ['(a|aa)+$', 'a'.repeat(60) + 'b', false],
    ['(a|aa)+$', 'a'.repeat(60), true],
    ['(\\w|(a|a))+(?:a|b)$', 'a'.repeat(60) + '!', false],
    ['(a+)+$', 'a'.repeat(5_000) + '!', false],
    ['(x+x+)+y', 'x'.repeat(3_000), false],
    ['^(\\w+\\s?)*$', 'mot é '.repeat(2_000) + '!', false],
    ['(\\b\\w+\\b\\s?)+$', 'café '.repeat(2_000) + '!\n', false], // Unicode \b and a final newline: the interleaved text
    ['(?i)(é|éé)+\\b$', 'É'.repeat(60) + 'b', false],
  ])('%s on RE2 gives the right answer within 2 s', (pattern, text, want) => {
    const s = compilePythonSearch(pattern);
    const r = timed(() => s.test(text));
    expect(r.value).toBe(want);
    expect(r.ms).toBeLessThan(ANSWER_MS);
  });

  it.each([
    ['(a|aa)+(?=c)', 'lookahead', 'aac'],
    ['(?=(a|aa)+$)', 'lookahead', 'aaaa'],
    ['(a|aa)+\\1c', 'backreferences', 'aac'],
  ])('%s (backtracking) fails that document within 2 s, naming the option and the pattern; the next document works', (pattern, why, matching) => {
    const s = compilePythonSearch(pattern);
    try {
      expect(s.test(matching)).toBe(true); // the worker thread is up before the clock starts
      const r = timed(() => {
        try {
          s.test('a'.repeat(60) + 'b');
          return null;
        } catch (e) {
          return e as Error;
        }
      });
      expect(r.ms).toBeLessThan(ANSWER_MS);
      expect(isAssayError(r.value) && r.value.code === 'FILTER' && r.value.field === 'regex_exp').toBe(true);
      expect(r.value?.message).toContain(`regex_exp: regex ${JSON.stringify(pattern)} took longer than its budget of ${budgetMs(61)} ms on this document`);
      expect(r.value?.message).toContain(`because of its ${why}`);
      expect(s.test(`a${matching}`)).toBe(true);
      expect(s.test('b')).toBe(false);
    } finally {
      s.close();
    }
  });

  it('the regex_filter tagger tags the issue’s document at once', () => {
    const t = regexFilter.create(regexFilter.options!.parse({ regex_exp: '(a|aa)+$' }), { seed: 0, cwd: '.' }) as { tag: (d: never) => TagSpan[] };
    const r = timed(() => t.tag({ id: '1', text: 'a'.repeat(60) + 'b', source: '', metadata: {}, record: {} } as never));
    expect(r.value.find((s) => s.type === 'regex')?.score).toBe(0);
    expect(r.value.find((s) => s.type === 'kept')?.score).toBe(1);
    expect(r.ms).toBeLessThan(ANSWER_MS);
  });
});

describe('the backtracking worker', () => {
  it('gives a document 1 s plus 1 ms per 1,000 characters', () => {
    expect(budgetMs(0)).toBe(BUDGET_BASE_MS);
    expect(budgetMs(1_000_000)).toBe(BUDGET_BASE_MS + 1_000);
  });

  it('answers ordinary searches, is stopped by close() and started again on demand', () => {
    const re = new BudgetedRegExp('colou?r(?=s)', 'u');
    expect(re.alive).toBe(false);
    expect(re.test('two colours', 1_000)).toEqual({ kind: 'ok', hit: true });
    expect(re.test('one colour', 1_000)).toEqual({ kind: 'ok', hit: false });
    expect(re.alive).toBe(true);
    re.close();
    expect(re.alive).toBe(false);
    expect(re.test('colors', 1_000)).toEqual({ kind: 'ok', hit: true });
    re.close();
  });

  it('is terminated when its budget runs out', () => {
    const re = new BudgetedRegExp('(a|aa)+(?=c)', 'u');
    expect(re.test('ac', 1_000).kind).toBe('ok');
    const r = timed(() => re.test('a'.repeat(60) + 'b', 300));
    expect(r.value).toEqual({ kind: 'timeout' });
    expect(r.ms).toBeLessThan(1_000);
    expect(re.alive).toBe(false);
  });
});

describe('linear time on RE2 and on straight patterns', () => {
  it.each([
    ['(a|aa)+$', 'a'],
    ['(\\w|(a|a))+(?:a|b)$', 'ab'],
    ['^(\\w+\\s?)*$', 'aaab '],
    ['(\\b\\w+\\b\\s?)+$', 'café '], // interleaved
    ['(?m)^(\\w|é)+$', 'é\n'], // interleaved
    ['a'.repeat(63) + 'b', 'a'], // straight, on JS RegExp: its worst case
  ])('%s on repeats of %j grows linearly from 10 KB to 1 MB', (pattern, unit) => {
    const s = compilePythonSearch(pattern);
    const ratio = growthRatio((n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n) + '!\n', (text) => s.test(text), 2);
    expect(ratio).toBeLessThan(3);
  });
});
