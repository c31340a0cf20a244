// The JavaScript predictor's shortcuts against their plain counterparts: first label search, row cache resets, dim-16 sums, bucket bitmap.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readJsModel } from './js-model.js';
import { BucketTable, WordTable } from './js-tables.js';
import { HASH_START, hashStep, TokenCache } from '../../../text/token-cache.js';
import { JsPredictor, remainder } from './js-predict.js';
import { JsSummer, rowSummer } from './js-sum.js';
import { decideLanguage, type LanguageFilterOptions } from './language-filter.js';
import { DEFAULT_LID_MODEL, type FastTextModel } from './model.js';
import { LANGUAGE_SAMPLES } from './samples.js';
import { lid176BothRuntimes } from './testing.js';

/** A seeded generator, so a failure names inputs that can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const UNITS = ['a', 'e', 'z', ' ', ' ', '\t', '\r\n', '\0', '\v', 'é', 'ß', 'ж', '東', '京', '😊', '\uD800', '\uDC00', 'ก', 'ا', '__label__', '</s>', '-', '.', '1'];

/** Varied and adversarial lines: the samples, mixtures of them (uncertain predictions), cut-offs and random units. */
function texts(): string[] {
  const r = rng(7);
  const samples = LANGUAGE_SAMPLES.map(([, t]) => t);
  const out = [...samples, '', ' ', '\t\v\f\r', 'x'.repeat(5000), 'the the the', 'a\nb', '😊'.repeat(300), 'ab'.repeat(3000) + ' ' + '東'.repeat(2000)];
  for (let i = 0; i < 200; i++) {
    const a = samples[Math.floor(r() * samples.length)] as string;
    const b = samples[Math.floor(r() * samples.length)] as string;
    out.push(a.slice(0, Math.floor(r() * a.length)) + ' ' + b.slice(Math.floor(r() * b.length)));
    let s = '';
    for (let n = Math.floor(r() * 40); n > 0; n--) s += UNITS[Math.floor(r() * UNITS.length)];
    out.push(s);
  }
  return out;
}

const lid = lid176BothRuntimes();

describe('first label without ranking all labels', () => {
  it("gives predict(text with newlines as spaces, -1)'s first entry and every label's probability, as the JavaScript and C++ rankings do", () => {
    const labels = [...lid.js().labels, '__label__none'];
    for (const text of texts()) {
      const line = text.replace(/\n/g, ' ');
      const r = lid.js().first?.(text, labels);
      const name = JSON.stringify(line.slice(0, 60));
      for (const full of [lid.js().predict(line, -1), lid.wasm().predict(line, -1)]) {
        expect(r?.first, name).toEqual(full[0] ?? null);
        expect(r?.probabilities, name).toEqual(labels.map((l) => full.find((p) => p.label === l)?.probability));
      }
    }
  });

  it('leaves decideLanguage (HEAD) as ranking every label decides it', () => {
    const plain: FastTextModel = { ...lid.js(), first: undefined };
    const base: LanguageFilterOptions = { language_threshold: 0.65, profile: 'head', label_only: false, keep_top_pairs_threshold: -1 };
    for (const text of texts().slice(0, 120)) {
      for (const languages of [['en'], ['fr', 'de', 'xx', 'fr'], undefined]) {
        for (const label_only of [false, true]) {
          const o = { ...base, languages, label_only, language_threshold: languages === undefined ? 0.3 : 0.65 };
          expect(decideLanguage(lid.js(), text, o), JSON.stringify(text.slice(0, 40))).toEqual(decideLanguage(plain, text, o));
        }
      }
    }
  });
});

describe('row cache', () => {
  // `native`: the C addon's cache where it is built (js-native.test.ts compares the two), and the JavaScript's.
  it.each([true, false])('predicts the same when it starts over every few tokens, and on a second reading (native: %s)', (native) => {
    const m = readJsModel(readFileSync(DEFAULT_LID_MODEL));
    if (m === null) throw new Error('lid.176.ftz is read by the JavaScript predictor');
    const tiny = new JsPredictor(m, 3, native);
    const fresh = (): JsPredictor => new JsPredictor(m, undefined, native);
    const warm = fresh();
    for (const text of texts()) {
      const expected = fresh().predict(text, -1);
      expect(tiny.predict(text, -1), JSON.stringify(text.slice(0, 40))).toEqual(expected);
      warm.predict(text, 3);
      expect(warm.predict(text, -1)).toEqual(expected);
    }
  });
});

describe('sums and lookups', () => {
  it('takes uint32 remainders by multiplication exactly, next to every multiple where the quotient is off by one', () => {
    for (const n of [1, 3, 7, 2_000_000, 2_000_003, 2 ** 31 - 1, 2 ** 31, 4_294_967_295]) {
      const inverse = 1 / n;
      const step = Math.max(1, Math.floor(2 ** 32 / n / 5000));
      for (let k = 0; k * n < 2 ** 32; k += step) {
        for (const u of [k * n - 1, k * n, k * n + 1, k * n + n - 1]) {
          if (u >= 0 && u < 2 ** 32) expect(remainder(u, n, inverse), `${u} % ${n}`).toBe(u % n);
        }
      }
      expect(remainder(4_294_967_295, n, inverse)).toBe(4_294_967_295 % n);
    }
    expect(remainder(5, 0, Infinity)).toBeNaN();
  });

  it('keeps every token and its list through the table growing, and forgets them all past its limit', () => {
    const cache = new TokenCache(60_000);
    const enc = new TextEncoder();
    const hashOf = (b: Uint8Array): number => b.reduce((h, x) => hashStep(h, x), HASH_START);
    const keys = Array.from({ length: 50_000 }, (_, i) => enc.encode(`t${i.toString(36)}é`));
    const lists = keys.map((_, i) => Int32Array.of(i, i * 7, -i));
    keys.forEach((k, i) => expect(cache.add(k, 0, k.length, hashOf(k), lists[i] as Int32Array, i % 4)).toBeGreaterThan(0));
    cache.trim();
    keys.forEach((k, i) => {
      const at = cache.find(k, 0, k.length, hashOf(k));
      expect(Array.from(cache.lists.subarray(at, at + 1 + (i % 4)))).toEqual([i % 4, ...Array.from(lists[i] as Int32Array).slice(0, i % 4)]);
    });
    const line = enc.encode(' t0é ');
    expect(cache.find(line, 1, line.length - 1, hashOf(line.subarray(1, line.length - 1)))).toBeGreaterThan(0);
    expect(cache.find(line, 1, line.length - 2, hashOf(line.subarray(1, line.length - 2)))).toBe(-1);
    for (let i = 0; i < 10_000; i++) cache.add(enc.encode(`x${i}`), 0, 2, i, lists[0] as Int32Array, 1);
    cache.trim();
    expect(cache.find(keys[0] as Uint8Array, 0, (keys[0] as Uint8Array).length, hashOf(keys[0] as Uint8Array))).toBe(-1);
  });

  it('adds dimension-16 rows in WebAssembly exactly as the JavaScript loop does, NaN, infinities and subnormals included', () => {
    const r = rng(3);
    const special = [NaN, Infinity, -Infinity, 2 ** -149, -(2 ** -140), 3e38, -3e38, 0, -0];
    const input = new Float32Array(64 * 16).map((_, i) => (i % 97 === 0 ? (special[i % special.length] as number) : (r() - 0.5) * 10 ** Math.floor(r() * 12 - 6)));
    const simd = rowSummer(64, 16);
    const plain = new JsSummer(64, 16);
    simd.matrix.set(input);
    plain.matrix.set(input);
    expect(simd.constructor.name).toBe('WasmSummer');
    for (const n of [0, 1, 7, 5000, 40_000]) {
      const a = simd.reserve(n);
      const b = plain.reserve(n);
      for (let i = 0; i < n; i++) a[i] = b[i] = Math.floor(r() * (i % 2 === 0 ? 64 : 3));
      const x = new Float32Array(16).fill(0.5);
      const y = new Float32Array(16).fill(0.5);
      simd.sum(x, n);
      plain.sum(y, n);
      expect(Array.from(x), `n=${n}`).toEqual(Array.from(y));
    }
  });

  it('finds words by their bytes in a line as a Map finds them by string, the last id of a repeated word winning', () => {
    const enc = new TextEncoder();
    const words = ['the', 'é', '東京', '😊', 'the', '', 'a'.repeat(300), 'thé'];
    const bytes = enc.encode(words.join('\0'));
    const table = new WordTable(words.length, bytes.length);
    const map = new Map<string, number>();
    let at = 0;
    words.forEach((w, id) => {
      const len = enc.encode(w).length;
      table.set(bytes, at, at + len, id);
      map.set(w, id);
      at += len + 1;
    });
    for (const w of [...words, 'th', 'they', '東', 'x', 'a'.repeat(299)]) {
      const line = enc.encode(` ${w} `);
      let h = HASH_START;
      for (let i = 1; i < line.length - 1; i++) h = hashStep(h, line[i] as number);
      expect(table.get(line, 1, line.length - 1, h), w).toBe(map.get(w) ?? -1);
    }
  });

  it('finds the same buckets through the bitmap as a Map does, keys past the bucket count stored too', () => {
    const r = rng(5);
    const table = new BucketTable(3000, 100_000);
    const map = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const key = i % 7 === 0 ? 100_000 + i : Math.floor(r() * 100_000);
      table.set(key, i);
      map.set(key, i);
    }
    for (let key = 0; key < 100_000; key++) expect(table.get(key)).toBe(map.get(key) ?? -1);
  });
});
