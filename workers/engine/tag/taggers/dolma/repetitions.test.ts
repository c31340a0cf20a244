// repetitions_v1 / paragraph_repetitions_v1 against a backtracking reference of Dolma's regex, plus quirks.
import { describe, expect, it } from 'vitest';
import { RepetitionScanner } from './repetitions-scan.js';
import { paragraphRepetitionsV1, repetitionsV1 } from './repetitions.js';
import { PY_WS_CLASS, randomText, rng, tagText } from './test-helpers.js';
import { toCodePoints } from './text.js';

/** Dolma's `(.+?)(\s?\1){3,}` run by a backtracking engine (JS agrees with Python re here), in code points. */
function reference(text: string): [number, number, number][] {
  const re = new RegExp(`([^\\n]+?)([${PY_WS_CLASS}]?\\1){3,}`, 'gu');
  return [...text.matchAll(re)].map((m) => {
    const start = Array.from(text.slice(0, m.index)).length;
    return [start, start + Array.from(m[0]).length, m[0].split(m[1]!).length - 1];
  });
}

const scan = (text: string) => new RepetitionScanner(toCodePoints(text).cps).scan().map((r) => [r.start, r.end, r.score]);

describe('repetition scanner', () => {
  it('agrees with the regex on random texts (short units)', () => {
    const next = rng(7);
    for (let k = 0; k < 3000; k++) {
      const text = randomText(next, ['a', 'b', ' ', '\n', 'ab', '\t', '😀'], 1 + Math.floor(next() * 40));
      expect(scan(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('agrees with the regex on texts with long repeated units (K-gram index path)', () => {
    const next = rng(11);
    const words = ['alpha', 'beta', 'gamma', 'delta', 'x', ' ', '\n', 'alpha beta', 'é'];
    for (let k = 0; k < 1500; k++) {
      const unit = randomText(next, words, 2 + Math.floor(next() * 4));
      const sep = () => (next() < 0.5 ? '' : next() < 0.5 ? ' ' : '\n');
      let text = randomText(next, words, Math.floor(next() * 4));
      const reps = 1 + Math.floor(next() * 5);
      for (let r = 0; r < reps; r++) text += unit + sep();
      text += randomText(next, words, Math.floor(next() * 4));
      expect(scan(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('reports occurrences of the unit, not repetitions, as the score', () => {
    // The leftmost start wins: " abab" from the space, counted 4 times (not "ab" 8 times from index 3).
    expect(scan('xx abab abab abab abab')).toEqual([[2, 22, 4]]);
    expect(scan('ab ab ab ab')).toEqual([[0, 11, 4]]);
    expect(scan('MMMM')).toEqual([[0, 4, 4]]);
    expect(scan('MMM')).toEqual([]);
  });

  it('does not report units longer than MAX_UNIT (bounded search)', () => {
    // Random letters have no shorter period, so the only repeated unit is the whole block.
    const letters = randomText(rng(4), [...'abcdefghijklmnopqrstuvwxyz'], 1001);
    expect(reference(letters)).toEqual([]);
    const long = `${letters} ${letters} ${letters} ${letters}`;
    expect(scan(long)).toEqual([]);
    const short = letters.slice(1);
    expect(scan(`${short} ${short} ${short} ${short}`)).toEqual(reference(`${short} ${short} ${short} ${short}`));
    expect(scan(`${short} ${short} ${short} ${short}`)).toEqual([[0, 4003, 4]]);
  });
});

describe('repetition taggers', () => {
  it('repetitions_v1 crosses newlines, paragraph_repetitions_v1 does not', async () => {
    const text = 'hello\nhello\nhello\nhello\n';
    expect((await tagText(repetitionsV1, text)).filter((s) => s[3] === 'repetition')).toEqual([[0, 23, 4, 'repetition']]);
    expect(await tagText(paragraphRepetitionsV1, text)).toEqual([
      [0, 24, 0, 'doc_max_score_repetition'],
      [0, 24, 0, 'doc_max_length_repetition'],
      [0, 24, 0, 'doc_frac_repetition'],
    ]);
  });

  it('offsets are code points around astral characters', async () => {
    const spans = await tagText(repetitionsV1, '😀 ab ab ab ab');
    expect(spans[0]).toEqual([1, 13, 4, 'repetition']);
  });

  it('empty text gives zero stats (no division by zero)', async () => {
    expect((await tagText(repetitionsV1, '')).map((s) => s[2])).toEqual([0, 0, 0]);
  });
});
