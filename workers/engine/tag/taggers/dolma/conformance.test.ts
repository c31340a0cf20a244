// Dolma's own unit-test expectations (shared/conformance/dolma/taggers/unit-cases.json) for the built-in taggers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../../../testing.js';
import { pyRound } from '../../../text/python.js';
import { c4V1, c4V2 } from './c4.js';
import { gopherV1 } from './gopher.js';
import { charLengthStripWsV1, charLengthV1 } from './length.js';
import { paragraphRepetitionsV1, repetitionsV1 } from './repetitions.js';
import { tagText } from './test-helpers.js';

interface Cases {
  c4_v1_and_c4_v2: { cases: { text: string; type: string; expected: [number, number, number][] }[] };
  gopher_v1: { cases: { text: string; full: boolean; expected_count?: number; expected?: [string, number][]; expected_at_index?: Record<string, [string, number]> }[] };
  char_length_v1_and_char_length_strip_ws_v1: { cases: { text: string; char_length_v1: number; char_length_strip_ws_v1: number }[] };
  repetitions_v1_and_paragraph_repetitions_v1: { cases: { text: string; expected: [number, number, number, string][]; expected_substrings?: string[] }[] };
}

const cases = JSON.parse(readFileSync(join(CONFORMANCE, 'dolma/taggers/unit-cases.json'), 'utf8')) as Cases;

describe('c4_v1 / c4_v2 (test_c4.py)', () => {
  for (const spec of [c4V1, c4V2]) {
    for (const c of cases.c4_v1_and_c4_v2.cases) {
      it(`${spec.name}: ${c.type} of ${JSON.stringify(c.text).slice(0, 40)}`, async () => {
        const spans = (await tagText(spec, c.text)).filter((s) => s[3] === c.type).map((s) => s.slice(0, 3));
        expect(spans).toEqual(c.expected);
      });
    }
  }
});

describe('gopher_v1 (test_gopher.py)', () => {
  for (const c of cases.gopher_v1.cases) {
    it(JSON.stringify(c.text), async () => {
      const spans = await tagText(gopherV1, c.text);
      const len = Array.from(c.text).length;
      for (const s of spans) expect(s.slice(0, 2)).toEqual([0, len]);
      if (c.full) {
        expect(spans).toHaveLength(c.expected_count!);
        expect(spans.map((s) => [s[3], s[2]])).toEqual(c.expected!.map(([t, v]) => [t, pyRound(v, 5)]));
      }
      for (const [i, [t, v]] of Object.entries(c.expected_at_index ?? {})) expect([spans[Number(i)]?.[3], spans[Number(i)]?.[2]]).toEqual([t, v]);
    });
  }
});

describe('char_length_v1 / char_length_strip_ws_v1 (test_length.py)', () => {
  for (const c of cases.char_length_v1_and_char_length_strip_ws_v1.cases) {
    it(JSON.stringify(c.text), async () => {
      const len = Array.from(c.text).length;
      expect(await tagText(charLengthV1, c.text)).toEqual([[0, len, c.char_length_v1, 'length']]);
      expect(await tagText(charLengthStripWsV1, c.text)).toEqual([[0, len, c.char_length_strip_ws_v1, 'length_no_ws']]);
    });
  }
});

describe('repetitions_v1 / paragraph_repetitions_v1 (test_repetitions.py)', () => {
  for (const spec of [repetitionsV1, paragraphRepetitionsV1]) {
    cases.repetitions_v1_and_paragraph_repetitions_v1.cases.forEach((c, k) => {
      it(`${spec.name} case ${k}`, async () => {
        const spans = await tagText(spec, c.text);
        expect(spans).toEqual(c.expected.map(([a, b, v, t]) => [a, b, pyRound(v, 5), t]));
        const chars = Array.from(c.text);
        const reps = spans.filter((s) => s[3] === 'repetition').map((s) => chars.slice(s[0], s[1]).join(''));
        expect(reps).toEqual(c.expected_substrings ?? []);
      });
    });
  }
});
