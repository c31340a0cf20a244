// The C addon's hidden vectors (native/fasttext.c) against the JavaScript predictor's: the same predictions, bit for bit.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addonStatus, NATIVE_ABI } from '../../../native-addon.js';
import { REPO_ROOT, tempDir } from '../../../testing.js';
import { readJsModel } from './js-model.js';
import { JsPredictor } from './js-predict.js';
import { DEFAULT_LID_MODEL } from './model.js';
import { LANGUAGE_SAMPLES } from './samples.js';
import { TINY_MODELS, trainTiny } from './testing.js';

const status = addonStatus();
const built = status.addon !== null;

const HARD = [
  '',
  ' ',
  '\t\v\f\r',
  'first line\nsecond line',
  '\nstarts with a newline',
  '__label__en is read as a label, not a word',
  '__label__',
  '__labe',
  'a literal </s> token stops the line: le reste est ignoré',
  'ends with the token </s>',
  '</s>',
  '<//s> </s/> </S>',
  'lone \uD800 surrogate and \uDC00 another',
  'emoji 😊😊 and CJK 東京都の天気 and Ærøskøbing',
  'x'.repeat(5000),
  'the the the the the the the the',
  'nul\u0000byte and \u0085 next-line and \u00a0 no-break space',
  'GCLOUD_ARTIFACTS_VPCSC-CONFIG(1) --format=json --verbosity=debug /usr/bin/env',
];
const TEXTS = [...LANGUAGE_SAMPLES.map(([, t]) => t), ...HARD];

/** Two predictors of one model: the addon's (when built) and the JavaScript's; every output compared exactly. */
function agree(model: Buffer, texts: readonly string[], cacheLimit?: number): void {
  const c = new JsPredictor(readJsModel(model)!, cacheLimit);
  const js = new JsPredictor(readJsModel(model)!, cacheLimit, false);
  expect(c.usesNative).toBe(built);
  expect(js.usesNative).toBe(false);
  const labels = [...js.labels.slice(0, 3), '__label__none'];
  for (const text of texts) {
    const what = JSON.stringify(text.slice(0, 40));
    for (const k of [1, -1]) expect(c.predict(text, k), `${what} k=${k}`).toEqual(js.predict(text, k));
    expect(c.first(text, labels), what).toEqual(js.first(text, labels));
  }
}

/** Two tokens with the same 32-bit FNV-1a hash of their bytes (the token cache's hash), found by a birthday search. */
function tokenHashCollision(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const t = `w${i.toString(36)}`;
    let h = 0x811c9dc5;
    for (let k = 0; k < t.length; k++) h = Math.imul(h ^ t.charCodeAt(k), 0x01000193) >>> 0;
    const other = seen.get(h);
    if (other !== undefined) return [other, t];
    seen.set(h, t);
  }
}

describe.runIf(built)('the C addon', () => {
  const lid = readFileSync(DEFAULT_LID_MODEL);

  it('gives lid.176 the JavaScript predictor\'s exact probabilities on samples and hard inputs', () => {
    agree(lid, TEXTS);
  });

  it('keeps agreeing when its token cache starts over every few tokens', () => {
    const many = Array.from({ length: 40 }, (_, i) => `${LANGUAGE_SAMPLES[i % LANGUAGE_SAMPLES.length]![1]} token${i} ${'y'.repeat(i)}`);
    agree(lid, [...many, ...many], 7);
  });

  it('keeps agreeing once its token cache outgrows 2 MB (mapped for huge pages on Linux), across the growths', () => {
    // 150,000 distinct tokens: the slots grow past 2 MB (65,537 entries) and 4 MB, the pool past 8 MB.
    const lines = Array.from({ length: 75 }, (_, l) => Array.from({ length: 2000 }, (_, k) => `q${(l * 2000 + k).toString(36)}`).join(' '));
    agree(lid, [...lines, lines[0]!, LANGUAGE_SAMPLES[0]![1]]);
  });

  it('tells apart tokens whose hashes are equal, and a token new twice in one line', () => {
    const [a, b] = tokenHashCollision();
    const fresh = 'zqxvw zqxvw zqxvw';
    agree(lid, [`${a} ${b} ${a}`, `${b} x ${a}`, fresh, `${fresh} ${b}`]);
    agree(lid, [`${b} ${a}`, `${a} ${a} ${b} ${b}`]);
  });

  it('finds a pruned bucket\'s row as the pairs give it (the last one for a bucket), with a bit per bucket or without', () => {
    const addon = status.addon!;
    const words = { bytes: new Uint8Array([0x61]), at: Int32Array.of(0, 1), ids: Int32Array.of(0) };
    // Row k of the matrix is [k, -k]; the token "b" (one word, "a", in the dictionary) has one n-gram: "b".
    const matrix = Float32Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? i / 2 : -(i - 1) / 2));
    const hidden = new Float32Array(2);
    const line = new TextEncoder().encode('b');
    // Up to 2^28 buckets a bit per bucket is read before the table; past that, the table alone.
    for (const buckets of [1000, 2 ** 28 + 7]) {
      const b = (Math.imul(0x811c9dc5 ^ 0x62, 0x01000193) >>> 0) % buckets;
      // dim 2, n-grams of one character, 1 word, a token cache of 100.
      const params = Int32Array.of(2, 1, 1, 1, buckets, 100);
      const embed = (pairs: number[]): number[] => {
        const handle = addon.create(params, matrix, words.bytes, words.at, words.ids, Int32Array.from(pairs));
        const listed = pairs.some((key, i) => i % 2 === 0 && key === b);
        expect(addon.embed(handle, line, line.length, hidden)).toBe(listed ? 1 : 0);
        return [...hidden];
      };
      expect(embed([b, 4])).toEqual([5, -5]);
      expect(embed([b + 1, 2, b, 3, b - 1, 1])).toEqual([4, -4]);
      expect(embed([b, 2, b, 3])).toEqual([4, -4]);
      expect(embed([b + 1, 2, b - 1, 1])).toEqual([0, 0]);
      // A bucket at or past the model's count is never a lookup's: dropped, whatever its row.
      expect(embed([buckets + b, 3, b, 1])).toEqual([2, -2]);
    }
  });

  it('refuses tables that would read outside its arrays, with the field named', () => {
    const addon = status.addon!;
    const words = { bytes: new Uint8Array([0x61]), at: Int32Array.of(0, 1), ids: Int32Array.of(0) };
    // dim 2, n-grams of 1–2 characters, 1 word, 4 buckets, cache of 100 tokens; unpruned (null pairs).
    const params = Int32Array.of(2, 1, 2, 1, 4, 100);
    const matrix = (rows: number): Float32Array => new Float32Array(rows * 2);
    expect(() => addon.create(params, matrix(5), words.bytes, words.at, words.ids, null)).not.toThrow();
    // 1 word + 4 buckets need 5 rows.
    expect(() => addon.create(params, matrix(4), words.bytes, words.at, words.ids, null)).toThrow(/n-gram rows are outside/);
    expect(() => addon.create(params, matrix(5), words.bytes, Int32Array.of(0, 2), words.ids, null)).toThrow(/word is outside/);
    expect(() => addon.create(params, matrix(5), words.bytes, words.at, Int32Array.of(9), null)).toThrow(/word is outside/);
    expect(() => addon.create(Int32Array.of(2, 1, 2, 1, 4, 0), matrix(5), words.bytes, words.at, words.ids, null)).toThrow(/model parameters/);
    // Pruned: bucket 3 → row 50 needs 1 + 51 rows; row 1 needs 3.
    expect(() => addon.create(params, matrix(3), words.bytes, words.at, words.ids, Int32Array.of(3, 1))).not.toThrow();
    expect(() => addon.create(params, matrix(3), words.bytes, words.at, words.ids, Int32Array.of(3, 1, 2, 50))).toThrow(/n-gram rows are outside/);
    expect(() => addon.create(params, matrix(3), words.bytes, words.at, words.ids, Int32Array.of(3, -2))).toThrow(/row is negative/);
    expect(() => addon.create(params, matrix(3), words.bytes, words.at, words.ids, Int32Array.of(3, 1, 2))).toThrow(/prune pairs/);
    expect(() => addon.create(params, matrix(1), words.bytes, words.at, words.ids, new Int32Array(0))).not.toThrow();
    expect(() => addon.embed({}, new Uint8Array(4), 4, new Float32Array(2))).toThrow(/handle/);
    // Quantized: 5 rows of dim 2 as one subquantizer of 2 (256 centroids of 2 floats), optional norms.
    const codes = new Uint8Array(5);
    const centroids = new Float32Array(512);
    expect(() => addon.create(params, null, words.bytes, words.at, words.ids, null, codes, centroids, null, Int32Array.of(5, 1, 2, 2))).not.toThrow();
    expect(() => addon.create(params, null, words.bytes, words.at, words.ids, null)).toThrow(/quantized matrix needs/);
    expect(() => addon.create(params, null, words.bytes, words.at, words.ids, null, codes, centroids.subarray(0, 500), null, Int32Array.of(5, 1, 2, 2))).toThrow(/shorter than its rows need/);
    expect(() => addon.create(params, null, words.bytes, words.at, words.ids, null, codes.subarray(0, 4), centroids, null, Int32Array.of(5, 1, 2, 2))).toThrow(/shorter than its rows need/);
    expect(() => addon.create(params, null, words.bytes, words.at, words.ids, null, codes, centroids, new Float32Array(4), Int32Array.of(5, 1, 2, 2))).toThrow(/shorter than its rows need/);
    expect(() => addon.create(params, null, words.bytes, words.at, words.ids, null, codes, centroids, null, Int32Array.of(5, 2, 2, 2))).toThrow(/quantizer/);
  });

  describe('models trained here (dense matrices, unpruned buckets, no n-grams)', () => {
    const tmp = tempDir('assay-ftc-');
    afterAll(() => tmp.cleanup());

    it.each(TINY_MODELS)('%s: the same predictions as the JavaScript', async (name, opts) => {
      const model = await trainTiny(tmp.dir, name, opts);
      agree(readFileSync(model), ['election vote today', 'the team scored a goal', 'spicy bakery recipes', 'unseen tokens only', ...HARD]);
    });
  });
});

describe('the addon\'s loading', () => {
  it.runIf(built)('refuses a binary built from other sources (its exports version differs), saying how to rebuild', () => {
    const tmp = tempDir('assay-abi-');
    try {
      // The loader in a tree of its own, beside a build of the same sources that claims another version.
      mkdirSync(join(tmp.dir, 'workers/engine'), { recursive: true });
      mkdirSync(join(tmp.dir, 'native/build'), { recursive: true });
      copyFileSync(join(REPO_ROOT, 'workers/engine/native-addon.ts'), join(tmp.dir, 'workers/engine/native-addon.ts'));
      writeFileSync(join(tmp.dir, 'package.json'), '{"type": "module"}\n');
      const sources = readdirSync(join(REPO_ROOT, 'native')).filter((f) => f.endsWith('.c')).map((f) => join(REPO_ROOT, 'native', f));
      const include = join(dirname(dirname(process.execPath)), 'include', 'node');
      const cc = spawnSync(process.env.CC || 'cc', ['-O0', '-shared', '-fPIC', '-DASSAY_ABI=99', `-I${include}`, '-o', join(tmp.dir, 'native/build/assay_native.node'), ...sources], { encoding: 'utf8' });
      expect(cc.status, cc.stderr).toBe(0);
      const script = `import { addonStatus } from '${join(tmp.dir, 'workers/engine/native-addon.ts')}'; console.log(JSON.stringify(addonStatus().reason));`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ASSAY_NATIVE: '1' } });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim())).toBe(`native/build/assay_native.node was built from other sources (exports version 99, expected ${NATIVE_ABI}): npm run build:native`);
    } finally {
      tmp.cleanup();
    }
  });

  it('is built wherever CI asks for it (ASSAY_REQUIRE_NATIVE=1)', () => {
    if (process.env.ASSAY_REQUIRE_NATIVE === '1') expect(status, status.reason ?? '').toMatchObject({ reason: null });
    else expect(built || status.reason !== null).toBe(true);
  });

  it('is turned off by ASSAY_NATIVE=0, and the predictor then runs in JavaScript', () => {
    const script = `
      import { addonStatus } from './workers/engine/native-addon.ts';
      import { readJsModel } from './workers/engine/tag/taggers/fasttext/js-model.ts';
      import { JsPredictor } from './workers/engine/tag/taggers/fasttext/js-predict.ts';
      import { DEFAULT_LID_MODEL } from './workers/engine/tag/taggers/fasttext/model.ts';
      import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
      const p = new JsPredictor(readJsModel(readFileSync(DEFAULT_LID_MODEL)));
      console.log(JSON.stringify({ reason: addonStatus().reason, native: p.usesNative, top: p.predict('bonjour tout le monde', 1)[0].label }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ASSAY_NATIVE: '0' } });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ reason: 'ASSAY_NATIVE=0', native: false, top: '__label__fr' });
  });
});
