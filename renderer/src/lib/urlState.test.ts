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
});
