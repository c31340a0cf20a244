// applyReplacements jumps between span boundaries; this checks it against the character-by-character walk it replaced.
import { describe, expect, it } from 'vitest';
import { rng } from '../testing.js';
import { applyReplacements, codePointOffsets, type Replacement } from './spans.js';

/** The previous implementation, one loop turn per code point (kept here as the reference). */
function referenceWalk(text: string, input: readonly Replacement[], applied?: (s: number, e: number) => void): string {
  if (input.length === 0) return text;
  const spans = input.length === 1 ? input : [...input].sort((a, b) => a.start - b.start);
  const units = /[\uD800-\uDFFF]/.test(text) ? codePointOffsets(text) : null;
  const length = units ? units.length - 1 : text.length;
  const u = (cp: number): number => (units ? (units[Math.min(cp, length)] ?? text.length) : Math.min(cp, length));
  let out = '';
  let runStart = -1;
  const flush = (i: number): void => {
    if (runStart >= 0) out += text.slice(u(runStart), u(i));
    runStart = -1;
  };
  const emit = (r: Replacement, from: number, to: number): void => {
    if (r.replacement !== '') out += r.replacement.split('{}').join(text.slice(u(from), u(to)));
    applied?.(from, to);
  };
  let k = 0;
  let spanStart = 0;
  for (let i = 0; i < length; i++) {
    if (k >= spans.length) {
      if (runStart < 0) runStart = i;
      continue;
    }
    const cur = spans[k] as Replacement;
    const inside = i >= cur.start && i < cur.end;
    if (i === cur.start) spanStart = i;
    if (inside) {
      flush(i);
      continue;
    }
    if (i === cur.end) {
      flush(i);
      emit(cur, spanStart, i);
      while (k < spans.length && (spans[k] as Replacement).start < i) k++;
    }
    if (k < spans.length && (spans[k] as Replacement).start === i) {
      flush(i);
      spanStart = i;
    } else if (runStart < 0) runStart = i;
  }
  flush(length);
  if (k < spans.length) emit(spans[k] as Replacement, spanStart, length);
  return out;
}

describe('applyReplacements jumping between boundaries', () => {
  it('matches the character-by-character walk on random texts and spans (overlaps, zero-length, reversed, past the end)', () => {
    const rand = rng(18);
    const int = (n: number): number => Math.floor(rand() * n);
    const alphabet = ['a', 'b', ' ', '\n', 'é', '😊', '𝔸'];
    for (let c = 0; c < 4000; c++) {
      let text = '';
      for (let n = int(40); n > 0; n--) text += alphabet[int(alphabet.length)];
      const spans: Replacement[] = [];
      for (let n = int(6); n > 0; n--) {
        const start = int(45);
        const end = rand() < 0.15 ? int(45) : start + int(12);
        spans.push({ start, end, replacement: ['', 'X', '<{}>', '{}{}'][int(4)] as string });
      }
      const seen: number[][] = [];
      const want: number[][] = [];
      expect(applyReplacements(text, spans, (s, e) => seen.push([s, e]))).toBe(referenceWalk(text, spans, (s, e) => want.push([s, e])));
      expect(seen).toEqual(want);
    }
  });

  it('handles fractional offsets as the walk did (datatrove cases pass computed offsets)', () => {
    const spans = [{ start: 1.5, end: 4.5, replacement: '[{}]' }, { start: 6, end: 7.25, replacement: '' }];
    expect(applyReplacements('0123456789', spans)).toBe(referenceWalk('0123456789', spans));
  });
});
