// fineweb_quality's one-pass line reading against the split-and-filter definition, on adversarial lines.
import { describe, expect, it } from 'vitest';
import { endsWithTerminalPunctuation } from '../../../text/charsets.js';
import { findDuplicates } from '../../../text/duplicates.js';
import { cpLength } from '../../../text/python.js';
import { nativeAddon } from '../../../native-addon.js';
import { fineWebQualityOptions, fineWebQualityRules } from './fineweb-quality.js';
import { isBlankText } from './lines.js';

/** FineWebQualityFilter's line rules written out over `text.split("\n")`. */
function naive(text: string, head: boolean, stops: string[] | null, shortLen: number): Record<string, number | undefined> {
  const all = text.split('\n');
  const nonEmpty = all.filter((l) => !isBlankText(l));
  const lines = head ? nonEmpty : all;
  const ends = (l: string) => (stops === null ? endsWithTerminalPunctuation(l) : stops.some((s) => l.endsWith(s)));
  const r = (a: number, b: number) => (b === 0 ? undefined : a / b);
  return {
    line_punct_ratio: r(lines.filter(ends).length, lines.length),
    short_line_ratio: r(lines.filter((l) => cpLength(l) <= shortLen).length, lines.length),
    char_dup_ratio: r(findDuplicates(nonEmpty).chars, cpLength(text.replaceAll('\n', ''))),
  };
}

const PIECES = ['\n', '\n', '\n\n', 'word', 'Same line.', 'x'.repeat(12), ' ', '\t', '\u3000', '.', '!', '?', '"', '…', '。', '\u{11047}', '😀', '\ud800', '\udc00', '\r', 'é', '\u0589'];

describe('fineweb_quality lines', () => {
  for (const profile of ['head', 'fineweb-2024'] as const) {
    for (const stop_chars of [null, ['.', '😀', 'ab']]) {
      it(`equal the split-and-filter definition (${profile}, stop_chars ${JSON.stringify(stop_chars)})`, () => {
        let s = 17;
        const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
        for (let t = 0; t < 1500; t++) {
          // A pair that only forms once the newline between its halves is removed.
          let text = t === 0 ? 'ab\ud800\nab\ud800\n\udc00x' : '';
          const n = Math.floor(next() * 25);
          for (let k = 0; k < n; k++) text += PIECES[Math.floor(next() * PIECES.length)];
          const short_line_length = Math.floor(next() * 14);
          const o = fineWebQualityOptions.parse({ profile, stop_chars, short_line_length });
          const want = naive(text, profile === 'head', stop_chars ?? (profile === 'head' ? null : ['.', "'", '"', '!', '?']), short_line_length);
          const got = Object.fromEntries(fineWebQualityRules(text, o, 7).filter((x) => x.rule in want).map((x) => [x.rule, x.value]));
          expect(got, JSON.stringify(text)).toEqual(want);
          const list = fineWebQualityRules(text, o, 7).find((x) => x.rule === 'list_ratio')?.value;
          expect(list).toBe(text.split('\n').some((l) => !isBlankText(l)) ? (text.split('\n').length - 1) / 7 : undefined);
          // The C line pass (native/fineweb.c, when the addon is loaded) and the JavaScript one agree on every rule.
          expect(fineWebQualityRules(text, o, 7), JSON.stringify(text)).toEqual(fineWebQualityRules(text, o, 7, true));
        }
      });
    }
  }
});

describe('fineweb_quality lines in C', () => {
  const addon = nativeAddon();
  it.skipIf(addon === null)('refuses tables and stop lists that do not fit', () => {
    const out = new Float64Array(6);
    const terminal = new Uint8Array(0x10000);
    expect(() => addon!.finewebLines('a', true, new Uint8Array(5), Int32Array.of(), null, Int32Array.of(0), 3, out)).toThrow(/terminal/);
    expect(() => addon!.finewebLines('a', true, terminal, Int32Array.of(9, 9, 5, 5), null, Int32Array.of(0), 3, out)).toThrow(/astral/);
    expect(() => addon!.finewebLines('a', true, terminal, Int32Array.of(), Uint16Array.of(0x2e), Int32Array.of(0, 2), 3, out)).toThrow(/stop offsets/);
    addon!.finewebLines('ab.\n\nab.', true, terminal, Int32Array.of(), Uint16Array.of(0x2e), Int32Array.of(0, 1), 2, out);
    expect(Array.from(out)).toEqual([3, 2, 2, 0, 3, 6]);
  });
});
