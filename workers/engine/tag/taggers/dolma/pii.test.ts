// pii_regex_v1 / v2 / with_counts_fast_v2: Dolma's post-processing rules and quirks, on Dolma-form spans.
import { describe, expect, it } from 'vitest';
import { piiRegexV1, piiRegexV2, piiRegexWithCountsFastV2 } from './pii.js';
import { tagText } from './test-helpers.js';

const of = (spans: [number, number, number, string][], type: string) => spans.filter((s) => s[3] === type).map((s) => s.slice(0, 3));

describe('pii_regex_v1 / v2', () => {
  it('finds e-mail, phone and IP with their matched context, doc = spans / words', async () => {
    const text = 'Write to jane.doe@example.com or call (555) 123-4567 from 10.0.0.1 today';
    const spans = await tagText(piiRegexV1, text);
    expect(of(spans, 'EMAIL_ADDRESS')).toEqual([[8, 30, 1]]); // leading and trailing space included
    expect(of(spans, 'PHONE_NUMBER')).toEqual([[37, 52, 1]]);
    expect(of(spans, 'IP_ADDRESS')).toEqual([[58, 66, 1]]);
    expect(of(spans, 'doc')).toEqual([[0, 72, 0.3]]); // 3 spans / 10 words
    expect(spans.map((s) => s[3])).toEqual(['EMAIL_ADDRESS', 'PHONE_NUMBER', 'IP_ADDRESS', 'doc']);
  });

  it('drops phones and IPs with isbn / doi / # within 100 characters (case-sensitive)', async () => {
    expect(of(await tagText(piiRegexV1, 'isbn: 555 123 4567'), 'PHONE_NUMBER')).toEqual([]);
    expect(of(await tagText(piiRegexV1, 'ISBN: 555 123 4567'), 'PHONE_NUMBER')).toEqual([[5, 18, 1]]);
    expect(of(await tagText(piiRegexV1, `#${'x'.repeat(98)} 10.0.0.1`), 'IP_ADDRESS')).toEqual([]);
    expect(of(await tagText(piiRegexV1, `#${'x'.repeat(99)} 10.0.0.1`), 'IP_ADDRESS')).toEqual([[101, 109, 1]]);
    // The window counts code points: an astral character is one.
    expect(of(await tagText(piiRegexV1, `#${'😀'.repeat(98)} 10.0.0.1`), 'IP_ADDRESS')).toEqual([]);
    expect(of(await tagText(piiRegexV1, `#${'😀'.repeat(99)} 10.0.0.1`), 'IP_ADDRESS')).toEqual([[101, 109, 1]]);
  });

  it('drops phones only when a URL follows a backspace (the non-raw "\\b" quirk)', async () => {
    const phone = 'call 555 123 4567';
    expect(of(await tagText(piiRegexV1, `${phone} https://example.com/x`), 'PHONE_NUMBER')).toHaveLength(1);
    expect(of(await tagText(piiRegexV1, `${phone} \bhttps://example.com/x`), 'PHONE_NUMBER')).toEqual([]);
    expect(of(await tagText(piiRegexWithCountsFastV2, `${phone} \bhttps://example.com/x`), 'PHONE_NUMBER')).toHaveLength(1);
  });

  it('judges an e-mail on its whole match split at "@" (v1) but on group 1 (fast)', async () => {
    const text = 'x @foo@bar.com y';
    expect(of(await tagText(piiRegexV1, text), 'EMAIL_ADDRESS')).toEqual([]);
    expect(of(await tagText(piiRegexWithCountsFastV2, text), 'EMAIL_ADDRESS')).toEqual([[1, 15, 1]]);
    expect(of(await tagText(piiRegexV1, 'a (@x.org b'), 'EMAIL_ADDRESS')).toEqual([]);
  });

  it('texts without words: -1.0 (v2 by design; v1 would raise ZeroDivisionError upstream)', async () => {
    for (const spec of [piiRegexV1, piiRegexV2]) {
      expect(await tagText(spec, '')).toEqual([[0, 0, -1, 'doc']]);
      expect(await tagText(spec, ' \n\t')).toEqual([[0, 3, -1, 'doc']]);
    }
  });
});

describe('pii_regex_with_counts_fast_v2', () => {
  it('doc_frac is 1 + the PII share (the doc_count span is summed too)', async () => {
    const text = 'mail a@b.co now';
    const spans = await tagText(piiRegexWithCountsFastV2, text);
    expect(spans).toEqual([
      [4, 12, 1, 'EMAIL_ADDRESS'], // " a@b.co " (8 of 15 characters)
      [0, 15, 1, 'doc_count'],
      [0, 15, 1.53333, 'doc_frac'],
    ]);
  });

  it('works per paragraph: a match cannot start in the previous line', async () => {
    const text = 'call\n 555 123 4567';
    expect(of(await tagText(piiRegexV1, text), 'PHONE_NUMBER')).toEqual([[4, 18, 1]]);
    expect(of(await tagText(piiRegexWithCountsFastV2, text), 'PHONE_NUMBER')).toEqual([[5, 18, 1]]);
  });

  it('applies no context rule to phones', async () => {
    expect(of(await tagText(piiRegexWithCountsFastV2, 'isbn 555 123 4567'), 'PHONE_NUMBER')).toEqual([[4, 17, 1]]);
  });

  it('skips detection in texts with more than 10 000 "?"', async () => {
    const pii = ' a@b.co 10.0.0.1 555 123 4567 ';
    expect(of(await tagText(piiRegexWithCountsFastV2, pii + '?'.repeat(10_000)), 'doc_count')[0]?.[2]).toBe(3);
    expect(of(await tagText(piiRegexWithCountsFastV2, pii + '?'.repeat(10_001)), 'doc_count')[0]?.[2]).toBe(0);
  });

  it('empty text: doc_count 0, doc_frac -1.0', async () => {
    expect(await tagText(piiRegexWithCountsFastV2, '')).toEqual([
      [0, 0, 0, 'doc_count'],
      [0, 0, -1, 'doc_frac'],
    ]);
  });
});
