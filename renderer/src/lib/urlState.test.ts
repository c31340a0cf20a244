import { describe, expect, it } from 'vitest';
import { decodeUrlState, encodeUrlState, type UrlState } from './urlState.js';

describe('url state', () => {
  it('round-trips recipe, document, filters, sort and columns', () => {
    const s: UrlState = {
      recipe: 'configs/my recipe.yaml',
      doc: 'doc/42#a',
      filter: { fate: 'dropped', droppedBy: 3, source: 'wiki', ranges: [{ key: 'a__b|c', min: 0.5 }, { key: 'len', max: 100 }, { key: 'x', min: -1, max: 2.5 }] },
      sort: { column: 'chars', desc: true },
      columns: ['a__b', 'c__d'],
    };
    expect(decodeUrlState(`#${encodeUrlState(s)}`)).toEqual(s);
  });

  it('round-trips the redacted fate with its rule, and a preview bucket', () => {
    const redacted: UrlState = { filter: { fate: 'redacted', redactedBy: 4, ranges: [] } };
    expect(encodeUrlState(redacted)).toBe('fate=redacted&rule=4');
    expect(decodeUrlState(encodeUrlState(redacted))).toEqual(redacted);
    const anyRedacted: UrlState = { filter: { fate: 'redacted', ranges: [] } };
    expect(decodeUrlState(encodeUrlState(anyRedacted))).toEqual(anyRedacted);
    for (const bucket of [{ rule: 3, bucket: 'alone' }, { rule: 0, bucket: 'exclusive' }, { rule: 12, bucket: 'sequential' }, { rule: -1, bucket: 'kept' }] as const) {
      const s: UrlState = { doc: 'd1', filter: { bucket, source: 'web', ranges: [{ key: 'k', max: 1 }] } };
      expect(decodeUrlState(`#${encodeUrlState(s)}`)).toEqual(s);
    }
  });

  it('drops malformed buckets', () => {
    for (const bad of ['bucket=alone', 'bucket=alone:', 'bucket=worst:3', 'bucket=alone:-1', 'bucket=alone:1.5', 'bucket=alone:-2', 'bucket=:3']) {
      expect(decodeUrlState(bad).filter, bad).toEqual({ ranges: [] });
    }
  });

  it('encodes an empty state as an empty hash and decodes it back', () => {
    expect(encodeUrlState({ filter: { ranges: [] } })).toBe('');
    expect(decodeUrlState('')).toEqual({ filter: { ranges: [] } });
  });

  it('drops malformed values instead of trusting them', () => {
    const s = decodeUrlState('fate=evil&rule=-1&range=abc|1|k&range=1|2&sort=-');
    expect(s.filter).toEqual({ ranges: [] });
    expect(s.sort).toBeUndefined();
    expect(decodeUrlState('rule=2.5').filter.droppedBy).toBeUndefined();
  });

  it('round-trips a search together with the other filters, and drops an empty one', () => {
    const s: UrlState = { filter: { fate: 'dropped', droppedBy: 2, source: 'web', search: '"cookie policy" OR lorem*', ranges: [{ key: 'k', min: 1 }] } };
    const hash = encodeUrlState(s);
    expect(hash).toContain('q=');
    expect(decodeUrlState(`#${hash}`)).toEqual(s);
    expect(encodeUrlState({ filter: { search: '  ', ranges: [] } })).toBe('');
    expect(decodeUrlState('q=').filter).toEqual({ ranges: [] });
  });
});
