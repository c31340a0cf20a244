// The JavaScript fastText predictor against the WebAssembly build on lid.176.ftz: same labels, same float32 probabilities.
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing.js';
import { expf } from './expf.js';
import { loadFastTextModel } from './model.js';
import { LANGUAGE_SAMPLES } from './samples.js';
import { lid176BothRuntimes, TINY_MODELS, trainTiny } from './testing.js';

const lid = lid176BothRuntimes();

/** Label → probability: equal scores may come out in another order (heap ties), the values may not differ. */
const asMap = (preds: { label: string; probability: number }[]) => new Map(preds.map((p) => [p.label, p.probability]));

const HARD = [
  '',
  ' ',
  '\t\v\f\r',
  'first line\nsecond line is ignored',
  '\nstarts with a newline',
  '__label__en is read as a label, not a word',
  'fastText stops at a literal </s> token: le reste de la ligne est ignoré',
  'ends with the token </s>',
  'lone \uD800 surrogate and \uDC00 another',
  'emoji 😊😊 and CJK 東京都の天気 and Ærøskøbing',
  'x'.repeat(5000),
  'the the the the the the the the',
  'GCLOUD_ARTIFACTS_VPCSC-CONFIG(1) --format=json --verbosity=debug /usr/bin/env',
];
const TEXTS = [...LANGUAGE_SAMPLES.map(([, t]) => t), ...HARD];

describe('JavaScript predictor', () => {
  it('is used for lid.176.ftz and gives the WebAssembly build its exact probabilities, for every k', () => {
    expect([lid.js().runtime, lid.wasm().runtime]).toEqual(['js', 'wasm']);
    for (const text of TEXTS) {
      for (const k of [1, 3, -1]) {
        const a = lid.js().predict(text, k);
        const b = lid.wasm().predict(text, k);
        expect(asMap(a), `${JSON.stringify(text.slice(0, 40))} k=${k}`).toEqual(asMap(b));
        expect(a[0]?.probability).toBe(b[0]?.probability);
      }
    }
  });

  it('honours the threshold the same way (fastText prunes below it, and below ~1e-5 at 0)', () => {
    for (const [, text] of LANGUAGE_SAMPLES.slice(0, 5)) {
      for (const t of [0, 0.001, 0.5]) expect(asMap(lid.js().predict(text, -1, t))).toEqual(asMap(lid.wasm().predict(text, -1, t)));
    }
  });
});

describe('models trained here (dense matrices, unpruned buckets)', () => {
  const tmp = tempDir('assay-ftjs-');
  afterAll(() => tmp.cleanup());

  it.each(TINY_MODELS)('%s: JavaScript where it can, with the WebAssembly build\'s probabilities', async (name, opts) => {
    const model = await trainTiny(tmp.dir, name, opts);
    const a = await loadFastTextModel(model);
    const b = await loadFastTextModel(model, { runtime: 'wasm' });
    try {
      expect(a.runtime).toBe('js');
      for (const text of ['election vote today', 'the team scored a goal', 'spicy bakery recipes', 'unseen tokens only', '', ...HARD]) {
        for (const k of [1, -1]) expect(asMap(a.predict(text, k)), `${name} ${JSON.stringify(text.slice(0, 30))}`).toEqual(asMap(b.predict(text, k)));
      }
    } finally {
      a.release();
      b.release();
    }
  });
});

describe('expf (musl)', () => {
  it('is exp rounded to float32 within one ulp, exactly 1 at 0, and saturates like musl', () => {
    expect(expf(0)).toBe(1);
    for (let x = -30; x <= 30; x += 0.0137) {
      const f = Math.fround(x);
      const ref = Math.fround(Math.exp(f));
      expect(Math.abs(expf(f) - ref)).toBeLessThanOrEqual(Math.abs(ref) * 2 ** -23);
    }
    expect(expf(89)).toBe(Infinity);
    expect(expf(-104)).toBe(0);
  });
});
