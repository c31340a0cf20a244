// pii_regex_with_counts_fast_v2 in C (native/pii.c) against the JavaScript it repeats, and its Nd table.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../native-addon.js';
import { ND_RANGES } from './nd-ranges.js';
import { fastPiiSpans, nativeFastPiiSpans } from './pii.js';
import { randomText, rng } from './test-helpers.js';

describe('ND_RANGES', () => {
  it('is what /\\p{Nd}/u matches from U+0660 on, in ascending pairs', () => {
    const inTable = (c: number) => {
      for (let k = 0; k < ND_RANGES.length; k += 2) if (c >= ND_RANGES[k]! && c <= ND_RANGES[k + 1]!) return true;
      return false;
    };
    const wrong: number[] = [];
    for (let c = 0x660; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (/\p{Nd}/u.test(String.fromCodePoint(c)) !== inTable(c)) wrong.push(c);
    }
    expect(wrong).toEqual([]);
    for (let k = 2; k < ND_RANGES.length; k += 2) expect(ND_RANGES[k]!).toBeGreaterThan(ND_RANGES[k - 1]! + 1);
  });
});

describe.runIf(nativeAddon() !== null)('pii_regex_with_counts_fast_v2 in C', () => {
  const addon = nativeAddon()!;
  const same = (text: string) => expect(nativeFastPiiSpans(addon, text), JSON.stringify(text)).toEqual(fastPiiSpans(text));

  it('gives the JavaScript scanner\'s spans, counts and fractions on random texts', () => {
    const next = rng(21);
    const pieces = ['1', '2', '9', '0', ' ', ' ', '\t', '\u3000', '-', '.', '(', ')', '\n', '\n\n', ' \n', 'a', 'Z', '@', '@@', 'b.c', '.', ',', ';', '?', '!', ':',
      '٣', '१', '𝟙', '\ud835', '\udfd9', '😀', '192.168.0.1', '10.0.0.300', '555 123 4567', '(555)123-4567', 'x@y.org ', '(x@y.z ', 'a.b@c.d. ', 'x@y,', 'é@ü.de\n'];
    for (let k = 0; k < 4000; k++) same(randomText(next, pieces, Math.floor(next() * 40)));
  });

  it('finds nothing in a text with more than 10,000 "?", like the JavaScript', () => {
    same('call 555 123 4567 ' + '?'.repeat(10_001));
    same('call 555 123 4567 ' + '?'.repeat(10_000));
  });

  it('returns every span when they outnumber its first buffer', () => {
    const text = Array.from({ length: 1500 }, (_, i) => ` (555) 123-${String(1000 + i)} a${i}@b.org \n1.2.3.${i % 250}`).join('');
    const spans = nativeFastPiiSpans(addon, text);
    expect(spans.filter((s) => s.type === 'PHONE_NUMBER')).toHaveLength(1500);
    same(text);
  });

  it('refuses IP matches outside the text or out of order', () => {
    const call = (ips: number[]) => addon.piiFast('1.2.3.4 x', Int32Array.from(ips), ND_RANGES, new Int32Array(30), new Float64Array(2));
    expect(call([0, 7])).toBe(1);
    expect(() => call([0, 70])).toThrow(/IP match/);
    expect(() => call([4, 7, 0, 3])).toThrow(/IP match/);
    expect(() => call([0])).toThrow(/ips/);
  });
});
