// ft_lang_id_paragraph_v1 writes Dolma's spans (every reported language of every paragraph), bounded per document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssayError } from '../../../errors.js';
import type { Tagger } from '../../types.js';
import { MAX_SPANS_PER_DOCUMENT } from './dolma-lang.js';
import { DEFAULT_LID_MODEL, loadFastTextModel, type FastTextModel } from './model.js';
import { LANGUAGE_SAMPLES } from './samples.js';
import { dolmaLangInput, splitParagraphs } from './text.js';
import { doc, makeTagger } from './testing.js';

let tagger: Tagger;
let model: FastTextModel;
beforeAll(async () => {
  tagger = await makeTagger('ft_lang_id_paragraph_v1');
  model = await loadFastTextModel(DEFAULT_LID_MODEL);
});
afterAll(async () => {
  await tagger.close?.();
  model.release();
});

const natural = (bytes: number): string => {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += `${LANGUAGE_SAMPLES[i % LANGUAGE_SAMPLES.length]![1]}\n`;
  return out.slice(0, bytes);
};

describe('ft_lang_id_paragraph_v1', () => {
  it('writes one span per paragraph per language fastText reports (k = -1), as Dolma does', () => {
    const text = 'a\nThe cat sat on the mat.\n\nDer Hund schläft.\n';
    const spans = tagger.tag(doc(text));
    const paragraphs = splitParagraphs(text);
    expect(spans).toHaveLength(paragraphs.reduce((n, p) => n + model.predict(dolmaLangInput(p.text), -1).length, 0));
    const keys = new Set(spans.map((s) => `${s.start}:${s.end}:${s.type}`));
    expect(keys.size).toBe(spans.length);
    // "a" gets a flat distribution over 168 languages: that is where 168 spans per line come from.
    expect(spans.filter((s) => s.start === 0).length).toBe(model.predict('a', -1).length);
  });

  it('fails a document past the span budget with a clear error, quickly, instead of exhausting the heap', () => {
    const text = 'a\n'.repeat(500_000); // 1 MB: 84 million spans in Dolma
    const start = performance.now();
    let err: unknown;
    try {
      tagger.tag(doc(text));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AssayError);
    expect((err as Error).message).toMatch(/more than 1,000,000 spans .* of its 500,000 paragraphs/);
    expect(performance.now() - start).toBeLessThan(20_000);
    // 2 KB of the same stays within the budget and is written in full.
    expect(tagger.tag(doc('a\n'.repeat(1_000)))).toHaveLength(1_000 * model.predict('a', -1).length);
  });

  it('is linear on natural text from 10 KB to 1 MB', () => {
    const small = natural(10_000);
    const large = natural(1_000_000);
    tagger.tag(doc(small));
    let s = Infinity;
    let l = Infinity;
    {
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) tagger.tag(doc(small));
      const t1 = performance.now();
      const spans = tagger.tag(doc(large));
      const t2 = performance.now();
      expect(spans.length).toBeLessThan(MAX_SPANS_PER_DOCUMENT);
      s = Math.min(s, t1 - t0);
      l = Math.min(l, t2 - t1);
    }
    // Same total work on both sides: linear ≈ 1, one quadratic step ≈ 100 (see stats.test.ts).
    expect(l / s).toBeLessThan(3);
  });
});
