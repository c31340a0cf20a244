import { describe, expect, it } from 'vitest';
import { applyReplacements, codePointLength, type Replacement } from './spans.js';

const r = (start: number, end: number, replacement: string): Replacement => ({ start, end, replacement });
const T = '0123456789';

describe('applyReplacements (Dolma spec §2.3 verified outcomes)', () => {
  const cases: [string, Replacement[], string][] = [
    ['delete', [r(2, 4, '')], '01456789'],
    ['wrap with {}', [r(2, 4, '<{}>')], '01<23>456789'],
    ['adjacent spans', [r(2, 4, '<{}>'), r(4, 6, '[{}]')], '01<23>[45]6789'],
    ['contained span dropped', [r(2, 6, '<{}>'), r(3, 5, '[{}]')], '01<2345>6789'],
    ['overlapping span dropped entirely', [r(2, 5, '<{}>'), r(3, 8, '[{}]')], '01<234>56789'],
    ['same start: first in sort order wins', [r(2, 4, 'A'), r(2, 6, 'B')], '01A456789'],
    ['end beyond text clamps', [r(8, 12, '<{}>')], '01234567<89>'],
    ['zero-length span quirk emits twice and eats a char', [r(5, 5, 'Z')], '01234Z6789Z'],
    ['zero-length empty span eats one char', [r(5, 5, '')], '012346789'],
    ['unsorted input is sorted by start', [r(6, 8, ''), r(1, 2, '')], '0234589'],
    ['span covering everything', [r(0, 10, 'X')], 'X'],
    ['span ending exactly at end', [r(7, 10, '<{}>')], '0123456<789>'],
    ['repeated {} placeholders', [r(0, 2, '{}-{}')], '01-0123456789'],
    ['no spans', [], T],
  ];
  for (const [name, spans, want] of cases) it(name, () => expect(applyReplacements(T, spans)).toBe(want));

  it('counts offsets in code points, not UTF-16 units', () => {
    const text = 'a😊b🀜cd';
    expect(codePointLength(text)).toBe(6);
    expect(applyReplacements(text, [r(1, 2, '[{}]')])).toBe('a[😊]b🀜cd');
    expect(applyReplacements(text, [r(3, 4, '')])).toBe('a😊bcd');
    expect(applyReplacements(text, [r(4, 99, '<{}>')])).toBe('a😊b🀜<cd>');
  });

  it('reports applied ranges', () => {
    const seen: [number, number][] = [];
    applyReplacements(T, [r(2, 5, ''), r(3, 8, ''), r(8, 9, 'x')], (s, e) => seen.push([s, e]));
    expect(seen).toEqual([[2, 5], [8, 9]]);
  });
});
