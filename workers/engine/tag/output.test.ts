import { describe, expect, it } from 'vitest';
import { attributeRow, codePointMap, groupSpans, makeVariableName, roundScore, utf16ToCodePoints } from './output.js';

describe('tag output', () => {
  it('names attributes like Dolma make_variable_name', () => {
    expect(makeVariableName('dclm-oh-eli5')).toBe('dclm_oh_eli5');
    expect(makeVariableName('__label__toxic')).toBe('__label__toxic');
    expect(() => makeVariableName('1abc')).toThrow(/starts with a digit/);
  });
  it('rounds scores like Python round(x, 5)', () => {
    expect(roundScore(0.123456)).toBe(0.12346);
    expect(roundScore(15)).toBe(15);
    expect(roundScore(0.000005)).toBe(0.00001); // 5e-06 is just above the tie in binary
    expect(roundScore(0.123455)).toBe(0.12345); // …and 0.123455 just below it
    expect(roundScore(0.1234550000000001)).toBe(0.12346);
    expect(roundScore(-0.123456)).toBe(-0.12346);
  });
  it('converts UTF-16 offsets to code points', () => {
    const text = 'a😊b';
    const f = utf16ToCodePoints(text)!;
    expect([0, 1, 3, 4].map(f)).toEqual([0, 1, 2, 3]);
    expect(utf16ToCodePoints('plain')).toBeNull();
  });
  it('writes spans flagged as code points as they are, past the end too', () => {
    const out: Record<string, [number, number, number][]> = {};
    groupSpans(out, 'e__t', [{ start: 3, end: 4, type: 'u', score: 1 }, { start: 3, end: 6, type: 'c', score: 1, codePoints: true }, { start: -1, end: 9, type: 'o', score: 1 }], undefined, codePointMap('a😊b'));
    // Offsets outside the text clamp to its ends, as the per-offset function does.
    expect(out).toEqual({ e__t__u: [[2, 3, 1]], e__t__c: [[3, 6, 1]], e__t__o: [[0, 3, 1]] });
  });
  it('groups spans by type with defaults, and serialises rows in msgspec order', () => {
    const out: Record<string, [number, number, number][]> = {};
    groupSpans(out, 'exp__t', [{ start: 0, end: 3, type: 'a', score: 1 / 3 }, { start: 0, end: 1, type: '', score: 1 }], ['b'], null);
    expect(out).toEqual({ exp__t__b: [], exp__t__a: [[0, 3, 0.33333]] });
    expect(attributeRow('x', out, 's')).toBe('{"id":"x","attributes":{"exp__t__b":[],"exp__t__a":[[0,3,0.33333]]},"source":"s"}');
  });
});
