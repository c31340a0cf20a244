// DataTrove LanguageFilter: the conformance cases on lid.176.ftz, HEAD vs FineWeb-era rules, tagger outputs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../../../testing.js';
import { runLanguageCase } from './cases.js';
import { decideLanguage, type LanguageFilterOptions } from './language-filter.js';
import type { FastTextModel, Prediction } from './model.js';
import { docScores, makeTagger } from './testing.js';

const cases = readFileSync(join(CONFORMANCE, 'datatrove/cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('conformance cases', () => {
  const language = cases.filter((c) => c['filter'] === 'LanguageFilter');
  it('there are four LanguageFilter cases', () => expect(language).toHaveLength(4));
  it.each(language.map((c) => [c['id'], c] as const))('%s passes with lid.176.ftz', (_id, c) => {
    expect(runLanguageCase(c)).toEqual({ status: 'pass' });
  });
  it('returns null for every other case', () => {
    for (const c of cases.filter((c) => c['filter'] !== 'LanguageFilter')) expect(runLanguageCase(c)).toBeNull();
  });
  it('skips an exact language_score expectation within the quantisation gap, naming the gap; fails beyond it', () => {
    const near = runLanguageCase({ ...language[0]!, expected_metadata: { language: 'en', language_score: 0.97 } });
    expect(near?.status).toBe('skip');
    expect(near).toMatchObject({ reason: expect.stringMatching(/language_score: lid\.176\.ftz gives 0\.98\d{3}, 0\.01\d* from lid\.176\.bin's 0\.97/) });
    expect(runLanguageCase({ ...language[0]!, expected_metadata: { language_score: 0.5 } })?.status).toBe('fail');
  });
  it('fails a wrong decision far from the threshold', () => {
    expect(runLanguageCase({ ...language[1]!, expected: 'kept' })?.status).toBe('fail');
  });
});

/** A model stub returning fixed predictions, recording what it was asked. */
function stub(preds: [string, number][]): FastTextModel & { calls: [string, number][] } {
  const calls: [string, number][] = [];
  return {
    calls,
    path: 'stub',
    header: { version: 12, dim: 1, wordNgrams: 1, model: 'supervised', bucket: 0 },
    quantized: false,
    runtime: 'wasm',
    labels: preds.map(([l]) => `__label__${l}`),
    predict(line: string, k = -1): Prediction[] {
      calls.push([line, k]);
      const all = preds.map(([l, p]) => ({ label: `__label__${l}`, probability: p }));
      return k === -1 ? all : all.slice(0, k);
    },
    release: () => undefined,
  };
}

const base: LanguageFilterOptions = { language_threshold: 0.65, profile: 'head', label_only: false, keep_top_pairs_threshold: -1 };

describe('decideLanguage', () => {
  it('HEAD: newlines become spaces, all labels, any requested language above the threshold keeps', () => {
    const m = stub([['en', 0.5], ['fr', 0.45], ['de', 0.05]]);
    const d = decideLanguage(m, 'a\nb', { ...base, languages: ['fr'], language_threshold: 0.4 });
    expect(m.calls).toEqual([['a b', -1]]);
    expect(d).toMatchObject({ language: 'en', languageScore: 0.5, scores: { fr: 0.45 }, kept: true });
  });

  it('FineWeb (v0.2.0): newlines removed, top label only, which must be requested', () => {
    const m = stub([['en', 0.5], ['fr', 0.45]]);
    const d = decideLanguage(m, 'a\nb', { ...base, profile: 'fineweb-2024', languages: ['fr'], language_threshold: 0.4 });
    expect(m.calls).toEqual([['ab', 1]]);
    expect(d).toMatchObject({ language: 'en', scores: { fr: 0 }, kept: false });
  });

  it('defaults: HEAD keeps any language above the threshold, FineWeb requires en', () => {
    const m = stub([['fr', 0.9]]);
    expect(decideLanguage(m, 'x', base)).toMatchObject({ scores: {}, kept: true });
    expect(decideLanguage(m, 'x', { ...base, profile: 'fineweb-2024' })).toMatchObject({ scores: { en: 0 }, kept: false });
    expect(decideLanguage(stub([['en', 0.65]]), 'x', { ...base, profile: 'fineweb-2024' }).kept).toBe(false);
  });

  it('label_only always keeps; a missing requested language scores 0.0; top pairs above their threshold', () => {
    const m = stub([['fr', 0.6], ['it', 0.3], ['es', 0.1]]);
    const d = decideLanguage(m, 'x', { ...base, languages: ['en'], label_only: true, keep_top_pairs_threshold: 0.2 });
    expect(d).toMatchObject({ scores: { en: 0 }, topPairs: { fr: 0.6, it: 0.3 }, kept: true });
  });
});

describe('language_filter tagger', () => {
  const en = 'The city council announced on Tuesday that public libraries will stay open longer.';
  it('emits requested scores, the top language and kept', async () => {
    const t = await makeTagger('language_filter', { languages: ['en', 'it'] });
    const s = docScores(t, en);
    expect(Object.keys(s)).toEqual(['en', 'it', 'language_en', 'kept']);
    expect(s['kept']).toBe(1);
    expect(s['language_en']).toBe(s['en']);
    expect(docScores(t, 'Le conseil municipal a annoncé mardi que les bibliothèques resteront ouvertes.')['kept']).toBe(0);
  });

  it('accepts a single language string and rejects an empty list', async () => {
    const t = await makeTagger('language_filter', { languages: 'it', profile: 'fineweb-2024' });
    expect(Object.keys(docScores(t, en))).toEqual(['it', 'language_en', 'kept']);
    await expect(makeTagger('language_filter', { languages: [] })).rejects.toThrow();
  });

  it('fineweb-2024 glues lines, so its score differs from HEAD on multi-line text', async () => {
    const text = 'The weather\nis nice\ntoday in\nthe city';
    const head = docScores(await makeTagger('language_filter', { languages: ['en'] }), text);
    const fw = docScores(await makeTagger('language_filter', { profile: 'fineweb-2024' }), text);
    expect(fw['en']).not.toBe(head['en']);
  });
});
