import { describe, expect, it } from 'vitest';
import { redactionView } from './redaction.js';

describe('redactionView', () => {
  it('marks removed ranges before and their replacements after, rebuilding the host output', () => {
    const text = 'mail bob@x.org or call 555-1234 now';
    const v = redactionView({
      text,
      output: 'mail |||EMAIL||| or call  now',
      replaced: [
        { start: 23, end: 31, rule: 2, replacement: '' },
        { start: 5, end: 14, rule: 1, replacement: '|||EMAIL|||' },
      ],
    });
    expect(v.consistent).toBe(true);
    expect(v.before.filter((p) => p.rule !== undefined).map((p) => p.text)).toEqual(['bob@x.org', '555-1234']);
    expect(v.after.filter((p) => p.rule !== undefined)).toEqual([{ text: '|||EMAIL|||', rule: 1 }]);
    expect(v.before.map((p) => p.text).join('')).toBe(text);
  });

  it('falls back to the host output when the ranges do not rebuild it', () => {
    const v = redactionView({ text: 'abc', output: 'xyz', replaced: [] });
    expect(v.consistent).toBe(false);
    expect(v.after).toEqual([{ text: 'xyz' }]);
  });

  it('leaves text untouched when nothing was replaced', () => {
    expect(redactionView({ text: 'abc', output: 'abc', replaced: [] }).after).toEqual([{ text: 'abc' }]);
  });
});
