// DataTrove character sets equal the transcribed upstream constants.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../testing.js';
import { endsWithTerminalPunctuation, PUNCTUATION, PUNCTUATION_SET, TERMINAL_PUNCTUATION } from './charsets.js';

const constants = JSON.parse(readFileSync(join(CONFORMANCE, 'datatrove/data/constants.json'), 'utf8')) as Record<string, unknown>;
const cps = (list: unknown) => (list as string[]).map((u) => String.fromCodePoint(parseInt(u.slice(2), 16)));

describe('DataTrove character sets', () => {
  it('match the upstream constants exactly', () => {
    expect(PUNCTUATION).toBe(constants['PUNCTUATION_string']);
    expect([...PUNCTUATION]).toEqual(cps(constants['PUNCTUATION_ordered_codepoints']));
    expect([...TERMINAL_PUNCTUATION].sort()).toEqual(cps(constants['TERMINAL_PUNCTUATION_sorted_codepoints']).sort());
    expect(PUNCTUATION_SET.size).toBe(constants['PUNCTUATION_SET_size']);
  });

  it('tests the last code point, astral marks included', () => {
    expect(endsWithTerminalPunctuation('Done.')).toBe(true);
    expect(endsWithTerminalPunctuation('Done."')).toBe(false);
    expect(endsWithTerminalPunctuation('x\u{11a42}')).toBe(true);
    expect(endsWithTerminalPunctuation('')).toBe(false);
    expect(endsWithTerminalPunctuation('\udc00')).toBe(false);
  });
});
