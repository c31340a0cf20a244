// Every Dolma tagger on hostile inputs: huge repetitive texts, emoji runs, empty/blank text, lone surrogates.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing.js';
import type { Tagger, TagSpan } from '../../types.js';
import { blocklistOptions } from './blocklist.js';
import { dolmaTaggers } from './index.js';
import { doc } from './test-helpers.js';

const tmp = tempDir('assay-hard-');
const taggers: [string, Tagger][] = [];

beforeAll(async () => {
  writeFileSync(join(tmp.dir, 'hosts.txt'), '0.0.0.0 bad.example\n');
  for (const spec of dolmaTaggers) {
    const options = spec.options ? blocklistOptions.parse({ lists: 'hosts.txt' }) : {};
    taggers.push([spec.name, await spec.create(options, { seed: 1, cwd: tmp.dir })]);
  }
});
afterAll(tmp.cleanup);

const TEN_MB = 10_000_000;
const repeat = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));
const INPUTS: Record<string, () => string> = {
  empty: () => '',
  'whitespace only': () => ' \n\t \u3000\n\x1c ',
  'lone surrogates': () => 'a\ud800b \udc00 \ud83d\ude00 x\udfff\ud800\n\ud83d',
  '100 000 emoji': () => '😀'.repeat(100_000),
  '100 000 mixed emoji then a letter': () => Array.from({ length: 100_000 }, (_, i) => String.fromCodePoint(0x1f600 + ((i * 7919) % 80))).join('') + 'x',
  '10 MB of one repeated word': () => repeat('lorem ', TEN_MB),
  '10 MB of a repeated sentence': () => repeat('The quick brown fox, jumps over the lazy dog @ 555 123 4567?\n', TEN_MB),
  '5 MB of spaces then a digit': () => ' '.repeat(5_000_000) + '1',
};

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Integer offsets inside the text, never between the halves of a surrogate pair; a finite score. */
function wellFormed(text: string, s: TagSpan): boolean {
  const splitsPair = (e: number) => e > 0 && e < text.length && isHigh(text.charCodeAt(e - 1)) && isLow(text.charCodeAt(e));
  const inside = Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start <= s.end && s.end <= text.length;
  return inside && !splitsPair(s.start) && !splitsPair(s.end) && Number.isFinite(s.score) && s.type.length > 0;
}

describe('hostile inputs', () => {
  for (const [name, make] of Object.entries(INPUTS)) {
    it(`${name}: every tagger finishes within 8 s (linear; quadratic would take hours) with well-formed spans`, () => {
      const text = make();
      const d = doc(text, { metadata: { url: 'https://bad.example/' } });
      for (const [tagger, t] of taggers) {
        const start = performance.now();
        const spans = t.tag(d);
        const ms = performance.now() - start;
        expect(ms, `${tagger} took ${ms.toFixed(0)} ms`).toBeLessThan(8000);
        const bad = spans.find((s) => !wellFormed(text, s));
        expect(bad, `${tagger} ${JSON.stringify(bad)}`).toBeUndefined();
      }
    });
  }

  it('document-level results of blank and empty texts are sensible values, not NaN', () => {
    for (const text of ['', '   ']) {
      for (const [name, t] of taggers) for (const s of t.tag(doc(text))) expect(Number.isNaN(s.score), name).toBe(false);
    }
  });
});
