import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../../../testing.js';
import { FilterCompileError, FilterEvalError, type Json } from '../types.js';
import { compileJqRule, compileJqSelector, disposeJq } from './index.js';

afterAll(() => disposeJq());

interface DocFilterCase {
  name: string;
  syntax: string | null;
  include: string[] | null;
  exclude: string[] | null;
  doc: Json;
  keep?: boolean;
  error?: boolean;
  construct_error?: boolean;
}
interface SelectorCase {
  doc: Json;
  jq: string | null;
  expected: Json;
}
const filterCases = JSON.parse(readFileSync(join(CONFORMANCE, 'dolma/filters/filter-unit-cases.json'), 'utf8')) as {
  doc_filter_cases: DocFilterCase[];
  selector_cases: SelectorCase[];
};
const inlineCases = JSON.parse(readFileSync(join(CONFORMANCE, 'dolma/mixer/cases/inline-cases.json'), 'utf8')) as {
  jq_missing_attribute_fails_the_run: { documents: Json[]; config: { streams: { filter: { include: string[] } }[] } };
};

/** Dolma's DocFilter::should_keep (spec §3.1): include is an OR (none ⇒ keep), then exclude is an OR. */
function shouldKeep(include: readonly string[], exclude: readonly string[], doc: Json): boolean {
  let keep = include.length === 0;
  for (const expr of include) if (!keep) keep = compileJqRule(expr, 'include').evaluate([doc])[0]!;
  if (keep) for (const expr of exclude) if (compileJqRule(expr, 'exclude').evaluate([doc])[0]) return false;
  return keep;
}

describe('filter-unit-cases.json (jq)', () => {
  const jqCases = filterCases.doc_filter_cases.filter((c) => c.syntax === 'jq');
  it('has the jq cases this suite expects', () => {
    expect(jqCases.length).toBeGreaterThanOrEqual(7);
  });

  it.each(jqCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const include = c.include ?? [];
    const exclude = c.exclude ?? [];
    if (c.construct_error) {
      expect(() => [...include.map((e) => compileJqRule(e, 'include')), ...exclude.map((e) => compileJqRule(e, 'exclude'))]).toThrow(FilterCompileError);
    } else if (c.error) {
      expect(() => shouldKeep(include, exclude, c.doc)).toThrow(FilterEvalError);
    } else {
      expect(shouldKeep(include, exclude, c.doc)).toBe(c.keep);
    }
  });

  it.each(filterCases.selector_cases.filter((c) => c.jq !== null).map((c) => [c.jq!, c] as const))('selector %s', (expr, c) => {
    expect(compileJqSelector(expr).select([c.doc])).toEqual([c.expected]);
  });
});

describe('M7: a jq include on a missing attribute is an error', () => {
  it('fails the document instead of dropping it', () => {
    const m7 = inlineCases.jq_missing_attribute_fails_the_run;
    const expr = m7.config.streams[0]!.filter.include[0]!;
    const rule = compileJqRule(expr, 'include');
    let err: unknown;
    try {
      rule.evaluate(m7.documents);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FilterEvalError);
    expect((err as FilterEvalError).index).toBe(0);
    expect((err as FilterEvalError).expr).toBe(expr);
    expect((err as FilterEvalError).message).toMatch(/cannot index null with "b"/);
  });
});

describe('spec §3.5 jq expressions 19–22', () => {
  it('19: include when at most 30 % of the text is duplicated', () => {
    const expr =
      '(.attributes.dedupe_para_ngrams_13_1 | length == 0) or ((.attributes.dedupe_para_ngrams_13_1 | map(.[2] * (.[1] - .[0])) | add) / (.text | length) <= 0.3)';
    const text = 'x'.repeat(100);
    const docs: Json[] = [
      { text, attributes: { dedupe_para_ngrams_13_1: [] } },
      { text, attributes: { dedupe_para_ngrams_13_1: [[0, 20, 1]] } },
      { text, attributes: { dedupe_para_ngrams_13_1: [[0, 20, 1], [50, 61, 1]] } },
      { text, attributes: { dedupe_para_ngrams_13_1: [[0, 100, 0.25]] } },
      { text, attributes: {} },
    ];
    expect(compileJqRule(expr, 'include').evaluate(docs)).toEqual([true, true, false, true, true]);
  });

  it('20: score thresholds on the last element of the first span, and a length test', () => {
    const hq = compileJqRule('.attributes.cc_multi_bin__cc_multi_bin__hq[0][-1] <= 0.01', 'exclude');
    expect(hq.evaluate([{ attributes: { cc_multi_bin__cc_multi_bin__hq: [[0, 9, 0.005]] } }, { attributes: { cc_multi_bin__cc_multi_bin__hq: [[0, 9, 0.5]] } }])).toEqual([true, false]);
    // Like jaq, indexing the missing attribute's null is an error, not a silent keep.
    expect(() => hq.evaluate([{ attributes: {} }])).toThrow(/cannot index null with 0/);
    const pii = compileJqRule('.attributes.pii_regex_with_counts_fast_v2__pii_regex_with_counts_fast_v2__doc_count[0][-1] > 5', 'exclude');
    const key = 'pii_regex_with_counts_fast_v2__pii_regex_with_counts_fast_v2__doc_count';
    expect(pii.evaluate([{ attributes: { [key]: [[0, 9, 6]] } }, { attributes: { [key]: [[0, 9, 5]] } }])).toEqual([true, false]);
    const paloma = compileJqRule('(.attributes.paloma_paragraphs | length) > 0', 'exclude');
    expect(paloma.evaluate([{ attributes: { paloma_paragraphs: [[0, 1, 1]] } }, { attributes: { paloma_paragraphs: [] } }, { attributes: {} }])).toEqual([true, false, false]);
  });

  it('21: the defensive pattern never errors', () => {
    const expr =
      '(.attributes.cc_tiny_subset_analysis_october__gopher_v2__word_count | if type == "array" and length > 0 and .[0] != null and .[0][2] != null then .[0][2] < 50 else false end)';
    const k = 'cc_tiny_subset_analysis_october__gopher_v2__word_count';
    const docs: Json[] = [{ attributes: {} }, { attributes: { [k]: [] } }, { attributes: { [k]: [[0, 5, 30]] } }, { attributes: { [k]: [[0, 5, 60]] } }, { attributes: { [k]: [[0, 5]] } }];
    expect(compileJqRule(expr, 'exclude').evaluate(docs)).toEqual([false, false, true, false, false]);
  });

  it('22: fineweb-edu score arithmetic (with 0.5 in place of ${oc.env:ALPHA})', () => {
    const alpha = 0.5;
    const expr = `((.attributes."HuggingFaceFW_fineweb-edu-classifier_score" != null and .attributes."HuggingFaceFW_fineweb-edu-classifier_score_original" != null) and ((${alpha} * (.attributes.random_number_v1__random_number_v1__random[0][-1] * 2 - 1)) + (.attributes."HuggingFaceFW_fineweb-edu-classifier_score"[0][-1]) - .attributes."HuggingFaceFW_fineweb-edu-classifier_score_original"[0][-1]) > 0.30)`;
    const doc = (score: number, original: number, random: number): Json => ({
      attributes: {
        'HuggingFaceFW_fineweb-edu-classifier_score': [[0, 10, score]],
        'HuggingFaceFW_fineweb-edu-classifier_score_original': [[0, 10, original]],
        random_number_v1__random_number_v1__random: [[0, 10, random]],
      },
    });
    const rows: [number, number, number][] = [[3, 2.9, 0.9], [3, 2.9, 0.1], [2, 2, 0.8], [2, 2, 0.79], [4.5, 3, 0]];
    const expected = rows.map(([s, o, r]) => alpha * (r * 2 - 1) + s - o > 0.3);
    expect(expected).toContain(true);
    expect(expected).toContain(false);
    const rule = compileJqRule(expr, 'include');
    expect(rule.evaluate(rows.map(([s, o, r]) => doc(s, o, r)))).toEqual(expected);
    // `and` short-circuits before any index of the missing score.
    expect(rule.evaluate([{ attributes: {} }])).toEqual([false]);
  });

  it('the jq span selector returns the span list or null', () => {
    const sel = compileJqSelector('.attributes?.pii?.email?');
    const spans = [[0, 5, 0.9], [10, 20, 0.4]];
    expect(sel.select([{ attributes: { pii: { email: spans } } }, { attributes: { pii: {} } }, { attributes: {} }, { text: 'no attributes' }, { attributes: 'x' }])).toEqual([
      spans,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('truthiness and match rules (spec §3.4)', () => {
  const values: [Json, boolean][] = [
    [null, false], [false, false], [true, true], [0, false], [1, true], [-1, true], [0.5, true], ['', false], ['a', true], [[], false], [[0], true], [{}, false], [{ a: null }, true],
  ];
  it('a single output matches iff it is truthy, for include and exclude alike', () => {
    const docs = values.map(([v]) => ({ v }));
    const expected = values.map(([, t]) => t);
    expect(compileJqRule('.v', 'include').evaluate(docs)).toEqual(expected);
    expect(compileJqRule('.v', 'exclude').evaluate(docs)).toEqual(expected);
  });

  it('several outputs: include needs all truthy, exclude any; no output never matches', () => {
    const docs: Json[] = [{ a: [true, true] }, { a: [true, 0] }, { a: [null, 'x'] }, { a: [false, 0] }, { a: [] }];
    expect(compileJqRule('.a[]', 'include').evaluate(docs)).toEqual([true, false, false, false, false]);
    expect(compileJqRule('.a[]', 'exclude').evaluate(docs)).toEqual([true, true, true, false, false]);
    expect(compileJqRule('empty', 'include').evaluate([{}])).toEqual([false]);
    expect(compileJqRule('select(.x)', 'exclude').evaluate([{ x: false }, { x: 1 }])).toEqual([false, true]);
  });

  it('numbers computed by the program follow the same rule', () => {
    expect(compileJqRule('.a - .b', 'include').evaluate([{ a: 1, b: 1 }, { a: 2, b: 1 }, { a: 0.1, b: 0.1 }])).toEqual([false, true, false]);
  });
});

describe('selectors (spec §3.3)', () => {
  it('0 outputs ⇒ null, 1 ⇒ the output, n ⇒ the array of outputs', () => {
    const sel = compileJqSelector('.a[]');
    expect(sel.select([{ a: [] }, { a: [[1, 2, 0.5]] }, { a: [1, 'x', null] }])).toEqual([null, [1, 2, 0.5], [1, 'x', null]]);
  });

  it('keeps strings, unicode and numbers intact through jq', () => {
    const text = 'é "quoted" \\ back\nslash 🀜 \u2028';
    expect(compileJqSelector('.text').select([{ text }])).toEqual([text]);
    expect(compileJqSelector('.text | length').select([{ text: '🀜é' }])).toEqual([2]);
    expect(compileJqSelector('.n').select([{ n: 0.1 }, { n: 1e-7 }, { n: 123456789012 }, { n: -0.5 }])).toEqual([0.1, 1e-7, 123456789012, -0.5]);
  });

  it('a runtime error is a FilterEvalError naming the document', () => {
    const sel = compileJqSelector('.a + 1');
    expect(() => sel.select([{ a: 1 }, { a: 'x' }])).toThrow(FilterEvalError);
    try {
      sel.select([{ a: 1 }, { a: 'x' }]);
    } catch (e) {
      expect((e as FilterEvalError).index).toBe(1);
      expect((e as FilterEvalError).message).toMatch(/cannot be added/);
    }
  });
});

describe('batches', () => {
  it('keeps per-document results aligned across batch boundaries', () => {
    const docs: Json[] = Array.from({ length: 600 }, (_, i) => ({ i, text: `doc ${i}` }));
    const rule = compileJqRule('.i % 3 == 0', 'include', { batchSize: 256 });
    expect(rule.evaluate(docs)).toEqual(docs.map((_, i) => i % 3 === 0));
    expect(compileJqSelector('.text', { batchSize: 7 }).select(docs)).toEqual(docs.map((_, i) => `doc ${i}`));
    expect(rule.evaluate([])).toEqual([]);
  });

  it('names the failing document by its position in the whole call, and keeps errors separate', () => {
    const docs: Json[] = [{ a: { b: 1 } }, { a: { b: 2 } }, { a: { b: 3 } }, {}, { a: { b: 5 } }];
    for (const batchSize of [1, 2, 256]) {
      const rule = compileJqRule('.a.b > 1', 'include', { batchSize });
      try {
        rule.evaluate(docs);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(FilterEvalError);
        expect((e as FilterEvalError).index).toBe(3);
      }
      expect(rule.evaluate(docs.filter((d) => JSON.stringify(d) !== '{}'))).toEqual([false, true, true, true]);
    }
  });

  it('reports error values of any type as text', () => {
    expect(() => compileJqRule('error({code: 7})', 'include').evaluate([null])).toThrow('{"code":7}');
  });

  it('finds a document jq cannot even parse (nested deeper than its limit) inside a batch', () => {
    let deep: Json = [];
    for (let k = 0; k < 300; k++) deep = [deep];
    const docs: Json[] = [{ a: 1 }, { a: deep }, { a: 2 }];
    try {
      compileJqRule('.a', 'include').evaluate(docs);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FilterEvalError);
      expect((e as FilterEvalError).index).toBe(1);
      expect((e as FilterEvalError).message).toMatch(/depth limit/);
    }
  });
});

describe('compile errors are found at compile time', () => {
  it.each([
    ['.x | sum', /sum\/0 is not defined/],
    ['.x |', /syntax error/],
    ['.a ?// 1', /syntax error/],
    ['if . then 1 else 2 end.a', /syntax error/],
    ['"unterminated', /unterminated string/],
    ['(.a', /unclosed/],
    ['.a) | (.b', /unexpected/],
    ['$undefined_var', /not defined/],
  ])('%j', (expr, message) => {
    expect(() => compileJqRule(expr, 'include')).toThrow(FilterCompileError);
    expect(() => compileJqSelector(expr)).toThrow(message);
  });

  it('never runs the expression while compiling', () => {
    // Would time out (or error) if it were run; compiling it must be instant and silent.
    const t = performance.now();
    compileJqRule('def f: f; f', 'include', { timeoutMs: 10_000 });
    compileJqRule('error("boom")', 'include');
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it('accepts a trailing comment and leading definitions', () => {
    expect(compileJqRule('def big: . > 2; .n | big # comment', 'include').evaluate([{ n: 3 }, { n: 1 }])).toEqual([true, false]);
  });

  it('rejects bad options', () => {
    expect(() => compileJqRule('.', 'include', { timeoutMs: 0 })).toThrow(RangeError);
    expect(() => compileJqSelector('.', { batchSize: 0 })).toThrow(RangeError);
  });
});
