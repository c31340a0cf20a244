// lineEdits in C (native/line-edits.c) against the JavaScript, on random texts cut into random units.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../native-addon.js';
import { lineEditsJs, lineEditsNative, type LineUnit } from './line-edits.js';
import { splitlineOffsets, stripRange } from './lines.js';

const PIECES = ['word', ' ', '  ', '\t', '\u00a0', '\u3000', '\n', '\r\n', '\r', '\u2028', '\x0b', '[1]', 'é', '😀', '.', 'Line'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Units as c4_quality and the symbol-lines formatter make them: lines (or stripped pieces), some kept, some with cuts. */
function unitsOf(text: string, paragraphs: boolean, next: () => number): LineUnit[] {
  const units: LineUnit[] = [];
  if (paragraphs) {
    const o = splitlineOffsets(text);
    for (let k = 0; k < o.length; k += 3) {
      const [a, b] = stripRange(text, o[k]!, o[k + 1]!);
      units.push({ start: o[k]!, end: o[k + 1]!, next: o[k + 2]!, a, b, kept: false, cuts: undefined });
    }
  } else {
    // Sentences: stripped pieces between random cut points, empty ones dropped.
    let at = 0;
    while (at < text.length) {
      const to = Math.min(text.length, at + 1 + Math.floor(next() * 12));
      const [a, b] = stripRange(text, at, to);
      // Now and then an empty one: its removed span and a run then start together, and the removed span comes first.
      if (a < b || next() < 0.2) units.push({ start: a, end: b, next: b, a, b, kept: false, cuts: undefined });
      at = to;
    }
  }
  for (const u of units) {
    u.kept = next() < 0.6;
    if (u.b - u.a >= 3 && next() < 0.3) u.cuts = [[u.a + 1, u.a + 1 + Math.floor(next() * (u.b - u.a - 1))]];
    if (u.kept && next() < 0.1) u.replaced = true;
  }
  return units;
}

describe('lineEdits in C', () => {
  const addon = nativeAddon();

  it.skipIf(addon === null)('gives the JavaScript spans on 4,000 random texts, lines and sentences, stripped or not', () => {
    for (let seed = 0; seed < 4000; seed++) {
      const next = random(seed);
      let text = '';
      for (let k = Math.floor(next() * 60); k > 0; k--) text += PIECES[Math.floor(next() * PIECES.length)];
      const paragraphs = seed % 2 === 0;
      const strip = seed % 3 !== 0;
      const units = unitsOf(text, paragraphs, next);
      expect(lineEditsNative(addon!, text, units, paragraphs, strip), `seed ${seed}`).toEqual(lineEditsJs(text, units, paragraphs, strip));
    }
  });

  it.skipIf(addon === null)('past its first output buffer', () => {
    const text = 'a\n \n'.repeat(5000);
    const units = unitsOf(text, true, random(7));
    expect(lineEditsNative(addon!, text, units, true, true)).toEqual(lineEditsJs(text, units, true, true));
  });

  it.skipIf(addon === null)('refuses units out of order or outside the text, and cuts outside it', () => {
    const call = (units: number[], cuts: number[] = []) => addon!.lineEdits('abc\ndef', Int32Array.from(units), Int32Array.from(cuts), true, true, new Int32Array(30));
    expect(call([0, 3, 4, 0, 3, 1, 4, 7, 7, 4, 7, 0])).toBe(2);
    expect(() => call([4, 7, 7, 4, 7, 0, 0, 3, 4, 0, 3, 1])).toThrow(/unit offsets/);
    expect(() => call([0, 3, 9, 0, 3, 1])).toThrow(/unit offsets/);
    expect(() => call([0, 3, 4, 2, 1, 1])).toThrow(/unit offsets/);
    expect(() => call([0, 3, 4, 0, 3, 1], [2, 8])).toThrow(/cut offsets/);
  });
});
