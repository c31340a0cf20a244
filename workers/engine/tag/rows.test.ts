// native/rows.c against groupSpans + JSON.stringify: the same text, or null (the JavaScript path) and never other text.
import { describe, expect, it } from 'vitest';
import { addonStatus } from '../native-addon.js';
import { codePointMap, groupSpans } from './output.js';
import { NativeRows, type RowTagger } from './rows.js';
import type { TagSpan } from './types.js';

const addon = addonStatus().addon;

/** The attributes object as tag/file.ts writes it without the addon. */
function reference(taggers: readonly RowTagger[], spans: readonly TagSpan[][], cpMap: Uint32Array | null): string {
  const out: Record<string, [number, number, number][]> = {};
  taggers.forEach((t, i) => groupSpans(out, t.prefix, spans[i]!, t.spec.defaults, cpMap));
  return JSON.stringify(out);
}

/** A small deterministic generator (xorshift), so that a failure names its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** Scores C writes itself: integers below 2^53 and, after roundScore, fractions below 10^9. */
const WRITTEN = [0, -0, 1, -7, 15, 2 ** 53 - 1, -(2 ** 53 - 1), 1 / 3, 2 / 3, 0.000005, 0.00001, -0.00001, 0.1 + 0.2, 0.999995, 123456789.123456, -999999999.99999, 1e-7, 0.5];
/** Scores it leaves to the JavaScript: not finite, integers from 2^53 on, fractions from 10^9 on. */
const LEFT = [NaN, Infinity, -Infinity, 2 ** 53, 2 ** 60, 1e21, 1e300, 1e9 + 0.5, -1e12 - 0.25];

describe.runIf(addon !== null)('native attribute rows', () => {
  it('write every number as JSON.stringify does, or leave the row to the JavaScript', () => {
    const rows = new NativeRows(addon!);
    const taggers: RowTagger[] = [{ prefix: 'e__t', spec: { defaults: ['d', 'a'] } }, { prefix: 'e__u', spec: {} }];
    for (const score of [...WRITTEN, ...LEFT]) {
      const spans = [[{ start: 0, end: 3, type: 'a', score }], [{ start: 1, end: 2, type: 'x-y', score: 0.25 }]];
      const text = rows.attributes(taggers, spans, null);
      const left = LEFT.includes(score); // SameValueZero: NaN too
      expect(text, String(score)).toBe(left ? null : reference(taggers, spans, null));
    }
    for (const offset of [0.5, NaN, 2 ** 53, -(2 ** 53)]) expect(rows.attributes(taggers, [[{ start: offset, end: 3, type: 'a', score: 1 }], []], null)).toBeNull();
  });

  it('writes five-decimal scores as JavaScript does across their range', () => {
    const rows = new NativeRows(addon!);
    const taggers: RowTagger[] = [{ prefix: 'p', spec: {} }];
    const next = random(7);
    for (let i = 0; i < 20_000; i++) {
      // Magnitudes from 10^-5 to 10^9, both signs: n / 10^5 with n up to 10^14.
      const n = Math.round((next() - 0.5) * 2 * 10 ** (next() * 14));
      const spans = [[{ start: 0, end: 1, type: 's', score: n / 1e5 }, { start: 2, end: 5, type: 's', score: next() * 10 ** (next() * 6) }]];
      expect(rows.attributes(taggers, spans, null), String(n)).toBe(reference(taggers, spans, null));
    }
  });

  it('groups random spans exactly as groupSpans does (key order, defaults, code points, empty types)', () => {
    const rows = new NativeRows(addon!);
    const next = random(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const texts = ['plain text here', 'a😊b 😊😊 c', '\ud800 lone', ''];
    for (let doc = 0; doc < 2_000; doc++) {
      const text = pick(texts);
      const taggers: RowTagger[] = [
        { prefix: 'x__one', spec: { defaults: ['b', 'a'] } },
        { prefix: 'x__two', spec: doc % 2 ? { defaults: ['z'] } : {} },
      ];
      const spans = taggers.map(() =>
        Array.from({ length: Math.floor(next() * 6) }, (): TagSpan => {
          const start = Math.floor(next() * (text.length + 3)) - 1;
          return { start, end: start + Math.floor(next() * 4), type: pick(['a', 'b', 'c', '', 'é', 'a-b', 'a_b']), score: pick([1, 0, next(), -next() * 1e3, 3]), codePoints: next() < 0.2 };
        }),
      );
      const cp = codePointMap(text);
      expect(rows.attributes(taggers, spans, cp), `document ${doc}`).toBe(reference(taggers, spans, cp));
    }
  });

  it('leaves keys it does not hold to the JavaScript, and refuses handles that are not its own', () => {
    const rows = new NativeRows(addon!);
    const taggers: RowTagger[] = [{ prefix: 'k', spec: {} }];
    // 65,536 keys fill the C table (the writer's warm-up holds a few); the next one is not held there.
    let held = 0;
    while (held < 70_000 && rows.attributes(taggers, [[{ start: 0, end: 1, type: `t${held}`, score: 1 }]], null) !== null) held++;
    expect(held).toBeGreaterThan(65_500);
    expect(held).toBeLessThanOrEqual(65_536);
    expect(rows.attributes(taggers, [[{ start: 0, end: 1, type: 'one_more', score: 1 }]], null)).toBeNull();
    expect(rows.attributes(taggers, [[{ start: 0, end: 1, type: 't7', score: 1 }]], null)).toBe('{"k__t7":[[0,1,1]]}');
    expect(() => addon!.rowAttrs({}, new Float64Array(4), 1)).toThrow(/rowAttrs: handle/);
    expect(() => addon!.rowKey(addon!.rowWriter(), 'not a key')).toThrow(/rowKey: key/);
  });
});
