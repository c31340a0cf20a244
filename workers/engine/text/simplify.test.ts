// simplify_text at HEAD and v0.2.0: upstream-asserted examples, derived goldens, each config switch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../testing.js';
import { PUNCTUATION } from './charsets.js';
import { simplifyText } from './simplify.js';

describe('simplifyText (DataTrove simplify_text)', () => {
  it('HEAD: numbers with a decimal part become one 0, punctuation becomes spaces', () => {
    expect(simplifyText('|$17.56||1|\n|$15.37||2599|')).toBe('0 0 0 0');
    expect(simplifyText(PUNCTUATION)).toBe('0'); // the fullwidth １ inside PUNCTUATION is a digit
    expect(simplifyText("It's 12/05/2024 — isn't")).toBe('it s 0 0 0 isn t');
  });

  it('fineweb-2024 (v0.2.0): punctuation deleted after whitespace normalisation, digits last', () => {
    expect(simplifyText('|$17.56||1|\n|$15.37||2599|', {}, 'fineweb-2024')).toBe('0 0');
    expect(simplifyText("It's 12/05/2024 — isn't", {}, 'fineweb-2024')).toBe('its 0  isnt');
  });

  it('matches the texts simplified with upstream code at HEAD and v0.2.0 (derived MinHash goldens)', () => {
    const golden = JSON.parse(readFileSync(join(CONFORMANCE, 'datatrove/data/derived/minhash_golden_sha1.json'), 'utf8')) as {
      cases: Array<{ text: string; simplified_text_head: string; simplified_text_v0_2_0: string }>;
    };
    expect(golden.cases.length).toBeGreaterThan(0);
    for (const c of golden.cases) {
      expect(simplifyText(c.text)).toBe(c.simplified_text_head);
      expect(simplifyText(c.text, {}, 'fineweb-2024')).toBe(c.simplified_text_v0_2_0);
    }
  });

  it('strips Mn marks after NFD, keeps other marks, and folds Python whitespace', () => {
    expect(simplifyText('Café  Ångström\u00a0naïve')).toBe('cafe angstrom naive');
    expect(simplifyText('\u1c1d\u1c1e x')).toBe('\u1c1d\u1c1e x');
    expect(simplifyText('a\x1cb')).toBe('a b'); // U+001C is in PUNCTUATION and is also Python whitespace
  });

  it('honours each TextNormConfig switch', () => {
    expect(simplifyText('Hello, World 42', { lowercase: false })).toBe('Hello World 0');
    expect(simplifyText('Hello, World 42', { remove_punctuation: false })).toBe('hello, world 0');
    expect(simplifyText('Hello, World 42', { norm_numbers: false })).toBe('hello world 42');
    expect(simplifyText('monday in may', { norm_weekdays: true, norm_monthnames: true })).toBe('WEEKDAY in MONTH');
    expect(simplifyText('a \n b', { norm_whitespace: false })).toBe('a \n b');
  });
});
