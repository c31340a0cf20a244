import { describe, expect, it } from 'vitest';
import { isEstimate, rowTokensHeading, tokenHeading, tokenTitle } from './tokens.js';

describe('token figure labels', () => {
  it('calls every figure an estimate until a tokenizer count exists', () => {
    expect(tokenHeading('estimate')).toBe('est. tokens');
    expect(tokenHeading('partial')).toBe('tokens (part est.)');
    expect(tokenHeading('exact')).toBe('tokens');
    expect(tokenHeading(undefined)).toBe('est. tokens');
    expect([isEstimate('estimate'), isEstimate('partial'), isEstimate('exact'), isEstimate(undefined)]).toEqual([true, true, false, true]);
  });

  it('never says "exact" on hover of an estimate, and carries the host’s note', () => {
    const note = 'estimated tokens (⌈UTF-8 bytes / 4⌉): no tokenizer count in the index';
    const t = tokenTitle('351,000', { kind: 'estimate', note });
    expect(t).toBe(`≈ 351,000 tokens — ${note}`);
    expect(t).not.toMatch(/exact/);
    expect(tokenTitle('10', { kind: 'exact', tokenizer: 'gpt2', note: 'every document counted' })).toBe('10 tokens, counted by gpt2 (every document counted)');
  });

  it('labels the table’s token column by the rows it shows', () => {
    expect(rowTokensHeading([])).toBe('est. tokens');
    expect(rowTokensHeading([{}, { tokensExact: false }])).toBe('est. tokens');
    expect(rowTokensHeading([{ tokensExact: true }, {}])).toBe('tokens (part est.)');
    expect(rowTokensHeading([{ tokensExact: true }])).toBe('tokens');
  });
});
