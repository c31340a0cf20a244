import { describe, expect, it } from 'vitest';
import { count, previewResult, rule } from '../testing/fixtures.js';
import { csvField, ruleTableCsv } from './csv.js';
import { parseCsv } from '../../../shared/csv-read.js';

describe('csv', () => {
  it('quotes fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(3)).toBe('3');
  });

  it('writes the per-rule table with every bucket, a row per source, and the token kind', () => {
    const r0 = rule(0, 40, { label: 'too short, "really"', sequential: count(40, 400, { web: { docs: 30, tokens: 300 }, wiki: { docs: 10, tokens: 100 } }) });
    const r1 = rule(1, 5, { expression: '$.attributes[?(@.a == 1, @.b)]' });
    const rows = parseCsv(ruleTableCsv(previewResult([r0, r1])));
    expect(rows[0]).toEqual(['rule', 'label', 'kind', 'stream', 'expression', 'source', 'alone_docs', 'alone_tokens', 'exclusive_docs', 'exclusive_tokens', 'sequential_docs', 'sequential_tokens', 'tokens_kind']);
    expect(rows[1]).toEqual(['0', 'too short, "really"', 'exclude', 'main', r0.expression, '', '45', '450', '35', '350', '40', '400', 'estimate']);
    expect(rows[2]?.slice(5)).toEqual(['web', '0', '0', '0', '0', '30', '300', 'estimate']);
    expect(rows[3]?.slice(5, 6)).toEqual(['wiki']);
    expect(rows[4]?.slice(0, 5)).toEqual(['1', '$.attributes[?(@.a == 1, @.b)]', 'exclude', 'main', '$.attributes[?(@.a == 1, @.b)]']);
    expect(rows).toHaveLength(5);
  });
});
