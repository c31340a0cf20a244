// gopher_quality's line and word counts against DataTrove's expressions written out with Python's strip semantics.
import { describe, expect, it } from 'vitest';
import { cpLength, isAlpha, pyLstrip, pyRstrip, pySplitlines } from '../../../text/python.js';
import { PUNCTUATION_SET } from '../../../text/charsets.js';
import { splitIntoWords } from '../../../text/words.js';
import { gopherQualityOptions, gopherQualityRules } from './gopher-quality.js';

const PIECES = ['•', '-', '...', '…', '..', ' ', '\u00a0', '\t', '\u3000', 'word', 'Über', '😀', '#', '!!', '—', '\n', '\r\n', '\u2028', '.'];

function randomText(seed: number, parts: number): string {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let t = '';
  for (let k = 0; k < parts; k++) t += PIECES[Math.floor(next() * PIECES.length)];
  return t;
}

describe('gopher_quality', () => {
  const o = gopherQualityOptions.parse({});
  const value = (text: string, rule: string) => gopherQualityRules(text, o).find((r) => r.rule === rule)?.value;

  it('bullet and end-ellipsis lines: l.lstrip().startswith(("•", "-")), l.rstrip().endswith(("...", "…"))', () => {
    for (let seed = 0; seed < 300; seed++) {
      const text = randomText(seed, 1 + (seed % 40));
      const lines = pySplitlines(text);
      const bullets = lines.filter((l) => /^[•-]/.test(pyLstrip(l))).length;
      const ellipsis = lines.filter((l) => pyRstrip(l).endsWith('...') || pyRstrip(l).endsWith('…')).length;
      expect(value(text, 'gopher_too_many_bullets')).toBe(lines.length ? bullets / lines.length : undefined);
      expect(value(text, 'gopher_too_many_end_ellipsis')).toBe(lines.length ? ellipsis / lines.length : undefined);
    }
  });

  it('non-symbol words, their mean length and alphabetic words', () => {
    for (let seed = 0; seed < 100; seed++) {
      const text = randomText(seed + 1000, 60).replace(/\n/g, ' ');
      const words = splitIntoWords(text);
      const kept = words.filter((w) => ![...w].every((c) => PUNCTUATION_SET.has(c)));
      const alpha = words.filter((w) => [...w].some((c) => isAlpha(c))).length;
      expect(value(text, 'gopher_short_doc')).toBe(kept.length);
      const chars = kept.reduce((a, w) => a + cpLength(w), 0);
      expect(value(text, 'gopher_below_avg_threshold')).toBe(kept.length ? chars / kept.length : undefined);
      expect(value(text, 'gopher_below_alpha_threshold')).toBe(words.length ? alpha / words.length : undefined);
    }
  });
});
