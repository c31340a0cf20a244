// The production JSONPath rules of spec §3.5 (written out in full) on small hand-made documents.

import { describe, expect, it } from 'vitest';
import type { Json } from '../types.js';
import { compileJsonPathRule, parseJsonPath } from './index.js';

/**
 * One guarded rule `…[?(@.K && @.K[0] && @.K[0][2] OP V)]`: the attribute it reads, scores that
 * satisfy it and scores that do not. Both lists mix JSON integers and floats on purpose.
 */
interface SpecRule {
  n: string;
  expr: string;
  key: string;
  /** Scores as JSON text, so `1` and `1.0` reach the rule exactly as a parsed attribute file has them. */
  pass: string[];
  fail: string[];
}

// §3.5 abbreviates rules 7–9 and 16 with "…"; the elided intermediate thresholds of rule 9
// (6–9 grams) follow the Gopher paper's schedule 0.14, 0.13, 0.12, 0.11 between the quoted 5/10 ends.
const RULES: SpecRule[] = [
  { n: '1', key: 'gopher_rules__gopher_v1__word_count', pass: ['49', '49.5', '0'], fail: ['50', '50.0', '1000'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__word_count && @.gopher_rules__gopher_v1__word_count[0] && @.gopher_rules__gopher_v1__word_count[0][2] < 50)]' },
  { n: '2', key: 'gopher_rules__gopher_v1__word_count', pass: ['100001', '100000.5'], fail: ['100000', '5'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__word_count && @.gopher_rules__gopher_v1__word_count[0] && @.gopher_rules__gopher_v1__word_count[0][2] > 100000)]' },
  { n: '3a', key: 'gopher_rules__gopher_v1__median_word_length', pass: ['2', '2.9'], fail: ['3', '3.0', '5'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__median_word_length && @.gopher_rules__gopher_v1__median_word_length[0] && @.gopher_rules__gopher_v1__median_word_length[0][2] < 3)]' },
  { n: '3b', key: 'gopher_rules__gopher_v1__median_word_length', pass: ['11', '10.1'], fail: ['10', '10.0', '3'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__median_word_length && @.gopher_rules__gopher_v1__median_word_length[0] && @.gopher_rules__gopher_v1__median_word_length[0][2] > 10)]' },
  { n: '4', key: 'gopher_rules__gopher_v1__symbol_to_word_ratio', pass: ['0.11', '1'], fail: ['0.1', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__symbol_to_word_ratio && @.gopher_rules__gopher_v1__symbol_to_word_ratio[0] && @.gopher_rules__gopher_v1__symbol_to_word_ratio[0][2] > 0.1)]' },
  { n: '5', key: 'gopher_rules__gopher_v1__fraction_of_words_with_alpha_character', pass: ['0.79', '0'], fail: ['0.8', '1'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_words_with_alpha_character && @.gopher_rules__gopher_v1__fraction_of_words_with_alpha_character[0] && @.gopher_rules__gopher_v1__fraction_of_words_with_alpha_character[0][2] < 0.8)]' },
  { n: '6', key: 'gopher_rules__gopher_v1__required_word_count', pass: ['1', '0', '1.5'], fail: ['2', '2.0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__required_word_count && @.gopher_rules__gopher_v1__required_word_count[0] && @.gopher_rules__gopher_v1__required_word_count[0][2] < 2)]' },
  { n: '7a', key: 'gopher_rules__gopher_v1__fraction_of_lines_starting_with_bullet_point', pass: ['0.91', '1'], fail: ['0.9', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_lines_starting_with_bullet_point && @.gopher_rules__gopher_v1__fraction_of_lines_starting_with_bullet_point[0] && @.gopher_rules__gopher_v1__fraction_of_lines_starting_with_bullet_point[0][2] > 0.9)]' },
  { n: '7b', key: 'gopher_rules__gopher_v1__fraction_of_lines_ending_with_ellipsis', pass: ['0.31', '1'], fail: ['0.3', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_lines_ending_with_ellipsis && @.gopher_rules__gopher_v1__fraction_of_lines_ending_with_ellipsis[0] && @.gopher_rules__gopher_v1__fraction_of_lines_ending_with_ellipsis[0][2] > 0.3)]' },
  { n: '7c', key: 'gopher_rules__gopher_v1__fraction_of_duplicate_lines', pass: ['0.31', '1'], fail: ['0.3', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_duplicate_lines && @.gopher_rules__gopher_v1__fraction_of_duplicate_lines[0] && @.gopher_rules__gopher_v1__fraction_of_duplicate_lines[0][2] > 0.3)]' },
  { n: '7d', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_lines', pass: ['0.31', '1'], fail: ['0.3', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_lines && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_lines[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_lines[0][2] > 0.3)]' },
  { n: '8a', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_most_common_2gram', pass: ['0.21', '1'], fail: ['0.2', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_2gram && @.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_2gram[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_2gram[0][2] > 0.2)]' },
  { n: '8b', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_most_common_3gram', pass: ['0.19', '1'], fail: ['0.18', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_3gram && @.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_3gram[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_3gram[0][2] > 0.18)]' },
  { n: '8c', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_most_common_4gram', pass: ['0.17', '1'], fail: ['0.16', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_4gram && @.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_4gram[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_most_common_4gram[0][2] > 0.16)]' },
  { n: '9-5', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_5grams', pass: ['0.16', '1'], fail: ['0.15', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_5grams && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_5grams[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_5grams[0][2] > 0.15)]' },
  { n: '9-6', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_6grams', pass: ['0.15', '1'], fail: ['0.14', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_6grams && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_6grams[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_6grams[0][2] > 0.14)]' },
  { n: '9-7', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_7grams', pass: ['0.14', '1'], fail: ['0.13', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_7grams && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_7grams[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_7grams[0][2] > 0.13)]' },
  { n: '9-8', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_8grams', pass: ['0.13', '1'], fail: ['0.12', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_8grams && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_8grams[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_8grams[0][2] > 0.12)]' },
  { n: '9-9', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_9grams', pass: ['0.12', '1'], fail: ['0.11', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_9grams && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_9grams[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_9grams[0][2] > 0.11)]' },
  { n: '9-10', key: 'gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_10grams', pass: ['0.11', '1'], fail: ['0.1', '0'],
    expr: '$.attributes[?(@.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_10grams && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_10grams[0] && @.gopher_rules__gopher_v1__fraction_of_characters_in_duplicate_10grams[0][2] > 0.10)]' },
  { n: '10', key: 'bff_duplicate_paragraph_spans_decontamination', pass: ['1', '1.0', '2'], fail: ['0.99', '0'],
    expr: '$@.attributes[?(@.bff_duplicate_paragraph_spans_decontamination && @.bff_duplicate_paragraph_spans_decontamination[0] && @.bff_duplicate_paragraph_spans_decontamination[0][2] >= 1.0)]' },
  { n: '11', key: 'pii_detection__pii_regex_with_counts_fast_v2__doc_count', pass: ['6', '5.5'], fail: ['5', '5.0', '0'],
    expr: '$.attributes[?(@.pii_detection__pii_regex_with_counts_fast_v2__doc_count && @.pii_detection__pii_regex_with_counts_fast_v2__doc_count[0] && @.pii_detection__pii_regex_with_counts_fast_v2__doc_count[0][2] > 5)]' },
  { n: '12', key: 'tokenizer_repetitions_v2r2__tokenizer_repetitions_v2r2__doc_max_score_repetition', pass: ['100', '100.0', '150'], fail: ['99.9', '0'],
    expr: '$.attributes[?(@.tokenizer_repetitions_v2r2__tokenizer_repetitions_v2r2__doc_max_score_repetition && @.tokenizer_repetitions_v2r2__tokenizer_repetitions_v2r2__doc_max_score_repetition[0] && @.tokenizer_repetitions_v2r2__tokenizer_repetitions_v2r2__doc_max_score_repetition[0][2] >= 100)]' },
  { n: '13', key: 'bff_duplicate_docs', pass: ['1', '1.0'], fail: ['0.5', '0'],
    expr: '$@.attributes[?(@.bff_duplicate_docs && @.bff_duplicate_docs[0] && @.bff_duplicate_docs[0][2] >= 1.0)]' },
  { n: '14', key: 'random_number_v1__random_number_v1__random', pass: ['0.003', '0.5', '1'], fail: ['0.0029', '0'],
    expr: '$.attributes[?(@.random_number_v1__random_number_v1__random[0][2] >= 0.003)]' },
  { n: '15', key: 'ft_lang_id_en_doc_v2__ft_lang_id_en_doc_v2__en', pass: ['0.49', '0'], fail: ['0.5', '1'],
    expr: '$.attributes[?(@.ft_lang_id_en_doc_v2__ft_lang_id_en_doc_v2__en && @.ft_lang_id_en_doc_v2__ft_lang_id_en_doc_v2__en[0] && @.ft_lang_id_en_doc_v2__ft_lang_id_en_doc_v2__en[0][2] < 0.5)]' },
  ...['has_curly_brace', 'has_lorem_ipsum', 'has_javascript', 'has_naughty_word'].map((k) => ({
    n: `16-${k}`, key: `c4_v2__c4_v2__${k}`, pass: ['1', '0.51'], fail: ['0.5', '0'],
    expr: `$.attributes[?(@.c4_v2__c4_v2__${k} && @.c4_v2__c4_v2__${k}[0] && @.c4_v2__c4_v2__${k}[0][2] > 0.5)]`,
  })),
  { n: '18-spans', key: 'sample__random_number_v1__random', pass: ['0.49', '0'], fail: ['0.5', '1'],
    expr: '$.attributes[?(@.sample__random_number_v1__random[0][2] < 0.5)]' },
];

const withAttr = (attributes: Record<string, Json>): Json => ({ id: 'd', text: 'some text', attributes });
const span = (score: string): Json => JSON.parse(`[[0, 9, ${score}]]`) as Json;

describe.each(RULES)('spec §3.5 rule $n', ({ expr, key, pass, fail }) => {
  const rule = compileJsonPathRule(expr, 'exclude');
  const run = (attributes: Record<string, Json>): boolean | undefined => rule.evaluate([withAttr(attributes)])[0];

  it('parses', () => {
    expect(parseJsonPath(expr).segments).toHaveLength(2);
  });
  it.each(pass)('matches when the score is %s', (score) => {
    expect(run({ [key]: span(score), unrelated: span('0') })).toBe(true);
  });
  it.each(fail)('does not match when the score is %s', (score) => {
    expect(run({ [key]: span(score) })).toBe(false);
  });
  it('does not match when the attribute is missing, empty or not a span list', () => {
    expect(run({})).toBe(false);
    expect(run({ other: span(pass[0] as string) })).toBe(false);
    expect(run({ [key]: [] })).toBe(false);
    expect(run({ [key]: [[0, 9]] })).toBe(false);
    expect(run({ [key]: 'oops' })).toBe(false);
    expect(rule.evaluate([{ id: 'd' }])).toEqual([false]);
  });
  it('reads only the first span', () => {
    const spans = JSON.parse(`[[0, 9, ${fail[0]}], [9, 12, ${pass[0]}]]`) as Json;
    expect(run({ [key]: spans })).toBe(false);
  });
});

describe('spec §3.5 quirks and no-op rules', () => {
  it('rule 8: the singular "2gram" key never matches what the tagger writes ("2grams")', () => {
    const rule = compileJsonPathRule(RULES.find((r) => r.n === '8a')?.expr ?? '', 'exclude');
    const doc = withAttr({ gopher_rules__gopher_v1__fraction_of_characters_in_most_common_2grams: span('0.9') });
    expect(rule.evaluate([doc])).toEqual([false]);
  });

  it('rule 17: $.id matches every document that has an id, whatever its value', () => {
    const rule = compileJsonPathRule('$.id', 'include');
    expect(rule.evaluate([{ id: 'x' }, { id: '' }, { id: 0 }, { id: null }, { text: 'no id' }])).toEqual([true, true, true, true, false]);
  });

  it('the stray $@ prefix means exactly $.', () => {
    const a = compileJsonPathRule(RULES.find((r) => r.n === '13')?.expr ?? '', 'exclude');
    const b = compileJsonPathRule('$.attributes[?(@.bff_duplicate_docs && @.bff_duplicate_docs[0] && @.bff_duplicate_docs[0][2] >= 1.0)]', 'exclude');
    const docs = ['0', '0.5', '1', '1.0', '2'].map((s) => withAttr({ bff_duplicate_docs: span(s) }));
    expect(a.evaluate(docs)).toEqual([false, false, true, true, true]);
    expect(b.evaluate(docs)).toEqual(a.evaluate(docs));
  });
});
