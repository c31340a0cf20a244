// fasttext_classifier on a real supervised model trained here (offline) and on lid.176.ftz; training errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing.js';
import { DEFAULT_LID_MODEL, loadFastTextModel } from './model.js';
import { doc, makeTagger } from './testing.js';
import { trainSupervised } from './train.js';

const tmp = tempDir('assay-ftclf-');
const MODEL = 'toxic.bin';

beforeAll(async () => {
  const lines: string[] = [];
  for (let i = 0; i < 150; i++) {
    lines.push(`__label__toxic you are a stupid idiot and i hate you ${i % 7}`);
    lines.push(`__label__nontoxic have a lovely day my friend and thank you ${i % 5}`);
  }
  writeFileSync(join(tmp.dir, 'train.txt'), lines.join('\n') + '\n');
  await trainSupervised(join(tmp.dir, 'train.txt'), join(tmp.dir, MODEL), { epoch: 10, dim: 8, bucket: 10_000, lr: 0.5, seed: 1 });
});
afterAll(() => tmp.cleanup());

describe('a trained supervised model', () => {
  it('is a valid non-quantised supervised .bin with both labels', async () => {
    const m = await loadFastTextModel(join(tmp.dir, MODEL));
    expect(m.quantized).toBe(false);
    expect([...m.labels].sort()).toEqual(['__label__nontoxic', '__label__toxic']);
    expect(m.header).toMatchObject({ model: 'supervised', dim: 8, wordNgrams: 2, bucket: 10_000 });
    m.release();
  });

  it('document level: one span per label over the whole text, most probable first', async () => {
    const t = await makeTagger('fasttext_classifier', { model_path: MODEL }, tmp.dir);
    const text = 'you stupid idiot\ni hate you';
    const spans = t.tag(doc(text));
    expect(spans.map((s) => [s.start, s.end, s.type])).toEqual([
      [0, text.length, '__label__toxic'],
      [0, text.length, '__label__nontoxic'],
    ]);
    expect(spans[0]!.score).toBeGreaterThan(0.5);
    expect(spans[0]!.score + spans[1]!.score).toBeCloseTo(1, 4);
    await t.close?.();
  });

  it('paragraph and sentence levels score each unit', async () => {
    const text = 'You are a stupid idiot. Have a lovely day, my friend!\n\nThank you friend\n';
    const sent = (await makeTagger('fasttext_classifier', { model_path: MODEL, level: 'sentence', k: 1 }, tmp.dir)).tag(doc(text));
    expect(sent.map((s) => [text.slice(s.start, s.end), s.type])).toEqual([
      ['You are a stupid idiot.', '__label__toxic'],
      ['Have a lovely day, my friend!', '__label__nontoxic'],
      ['Thank you friend', '__label__nontoxic'],
    ]);
    const para = (await makeTagger('fasttext_classifier', { model_path: MODEL, level: 'paragraph', strip_label_prefix: true }, tmp.dir)).tag(doc(text));
    expect(para.map((s) => [s.start, s.end])).toEqual([[0, 54], [0, 54], [55, 72], [55, 72]]);
    expect(new Set(para.map((s) => s.type))).toEqual(new Set(['toxic', 'nontoxic']));
  });

  it('the whitespace preprocessing joins tokens with single spaces before predicting', async () => {
    const m = await loadFastTextModel(join(tmp.dir, MODEL));
    const t = await makeTagger('fasttext_classifier', { model_path: MODEL, preprocess: 'whitespace' }, tmp.dir);
    const text = '  have\u00a0a \t lovely\n\nday  ';
    expect(t.tag(doc(text))[0]!.score).toBe(m.predict('have a lovely day', 1)[0]!.probability);
    m.release();
  });
});

describe('model errors and other models', () => {
  it('a missing model_path file is an AssayError naming the resolved path', async () => {
    await expect(makeTagger('fasttext_classifier', { model_path: 'nope.bin' }, tmp.dir)).rejects.toThrow(
      `${join(tmp.dir, 'nope.bin')}: cannot read fastText model`,
    );
  });

  it('model_path is required', async () => {
    await expect(makeTagger('fasttext_classifier', {}, tmp.dir)).rejects.toThrow(/model_path/);
  });

  it('loads lid.176.ftz as a generic classifier', async () => {
    const t = await makeTagger('fasttext_classifier', { model_path: DEFAULT_LID_MODEL, k: 2 });
    expect(t.tag(doc('Bonjour à tous, comment allez-vous ?'))[0]?.type).toBe('__label__fr');
  });

  it('training rejects a file without labels', async () => {
    writeFileSync(join(tmp.dir, 'plain.txt'), 'no labels here\n');
    await expect(trainSupervised(join(tmp.dir, 'plain.txt'), join(tmp.dir, 'x.bin'))).rejects.toThrow(/no "__label__" labels/);
  });
});
