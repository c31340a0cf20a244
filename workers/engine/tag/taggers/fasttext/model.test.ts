// The WASM fastText wrapper: loading from a path, header checks, sharing, line and surrogate handling.
import { copyFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAssayError } from '../../../errors.js';
import { tempDir } from '../../../testing.js';
import { DEFAULT_LID_MODEL, loadFastTextModel, type FastTextModel } from './model.js';

const tmp = tempDir('assay-fasttext-');
let lid: FastTextModel;
beforeAll(async () => {
  lid = await loadFastTextModel();
});
afterAll(() => {
  lid.release();
  tmp.cleanup();
});

/** The AssayError a load of `file` fails with. */
async function loadError(file: string): Promise<Error & { code?: string; file?: string }> {
  try {
    (await loadFastTextModel(file)).release();
  } catch (e) {
    if (isAssayError(e)) return e;
    throw e;
  }
  throw new Error(`${file} loaded`);
}

describe('loading', () => {
  it('loads the shipped lid.176.ftz: 176 labels, quantised, supervised, version 12', () => {
    expect(DEFAULT_LID_MODEL).toMatch(/lid\.176\.ftz$/);
    expect(lid.labels).toHaveLength(176);
    expect(lid.labels).toContain('__label__en');
    expect(lid.quantized).toBe(true);
    expect(lid.header).toMatchObject({ version: 12, model: 'supervised', dim: 16 });
  });

  it('shares one loaded model per file and frees it with the last handle', async () => {
    const copy = join(tmp.dir, 'shared.ftz');
    copyFileSync(DEFAULT_LID_MODEL, copy);
    const a = await loadFastTextModel(copy);
    const b = await loadFastTextModel(copy);
    a.release();
    expect(b.predict('bonjour tout le monde', 1)[0]?.label).toBe('__label__fr');
    b.release();
    expect(() => b.predict('x')).toThrow(/after release/);
  });

  it('keeps the last two JavaScript models nobody holds loaded (a run creates its taggers per file); frees WebAssembly ones', async () => {
    const when = new Date('2026-01-02T03:04:05Z');
    const copies = ['idle-a.ftz', 'idle-b.ftz', 'idle-c.ftz', 'idle-w.ftz'].map((name) => {
      const file = join(tmp.dir, name);
      copyFileSync(DEFAULT_LID_MODEL, file);
      utimesSync(file, when, when);
      return file;
    });
    const [a, b, c, w] = copies as [string, string, string, string];
    (await loadFastTextModel(a)).release();
    (await loadFastTextModel(w, { runtime: 'wasm' })).release();
    // The same size and time, other bytes: only a model still loaded can answer.
    const spoil = (file: string): void => {
      writeFileSync(file, Buffer.alloc(readFileSync(file).length, 7));
      utimesSync(file, when, when);
    };
    spoil(a);
    spoil(w);
    const again = await loadFastTextModel(a);
    expect(again.predict('bonjour tout le monde', 1)[0]?.label).toBe('__label__fr');
    again.release();
    await expect(loadFastTextModel(w, { runtime: 'wasm' })).rejects.toMatchObject({ code: 'IO', file: w });
    // Two other models released after it: the first is dropped and read again (and now fails).
    (await loadFastTextModel(b)).release();
    (await loadFastTextModel(c)).release();
    await expect(loadFastTextModel(a)).rejects.toMatchObject({ code: 'IO', file: a });
  });

  it.each([
    ['missing.bin', null, /cannot read fastText model: ENOENT/],
    ['words.vec', '2 3\nhello 0.1 0.2 0.3\nworld 0.4 0.5 0.6\nmore text to pass sixty-four bytes\n', /wrong magic number.*text \.vec file/],
    ['short.bin', 'tiny', /shorter than a fastText header/],
  ])('%s is an AssayError naming the path', async (name, content, message) => {
    const file = join(tmp.dir, name);
    if (content !== null) writeFileSync(file, content);
    const e = await loadError(file);
    expect(e.code).toBe('IO');
    expect(e.file).toBe(file);
    expect(e.message).toMatch(message);
    expect(e.message.startsWith(`${file}: `)).toBe(true);
  });

  it('rejects a directory, a truncated model, a newer format and an unsupervised model', async () => {
    expect((await loadError(tmp.dir)).message).toMatch(/not a regular file/);
    const bytes = readFileSync(DEFAULT_LID_MODEL);
    const variant = (name: string, edit: (b: Buffer) => Buffer): string => {
      const file = join(tmp.dir, name);
      writeFileSync(file, edit(Buffer.from(bytes)));
      return file;
    };
    const truncated = variant('trunc.ftz', (b) => b.subarray(0, b.length - 10));
    expect((await loadError(truncated)).message).toMatch(/938003 bytes but its dictionary and matrix sizes add up to 938013/);
    const early = variant('early.ftz', (b) => b.subarray(0, 3000));
    expect((await loadError(early)).message).toMatch(/ends inside its dictionary/);
    const v13 = variant('v13.ftz', (b) => (b.writeInt32LE(13, 4), b));
    expect((await loadError(v13)).message).toMatch(/version 13/);
    const cbow = variant('cbow.ftz', (b) => (b.writeInt32LE(1, 8 + 7 * 4), b));
    expect((await loadError(cbow)).message).toMatch(/cbow model; only supervised/);
    // Layout intact, but fastText throws on the unknown loss id while building the model.
    const badLoss = variant('loss.ftz', (b) => (b.writeInt32LE(99, 8 + 6 * 4), b));
    expect((await loadError(badLoss)).message).toMatch(/runtime could not parse it \(C\+\+ exception/);
    const after = await loadFastTextModel(join(tmp.dir, 'shared.ftz'));
    expect(after.predict('bonjour le monde', 1)[0]?.label).toBe('__label__fr');
    after.release();
  });
});

describe('predict', () => {
  it('returns labels by decreasing probability; k limits them', () => {
    const all = lid.predict('Guten Tag, wie geht es Ihnen heute?', -1);
    expect(all[0]?.label).toBe('__label__de');
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.probability).toBeGreaterThanOrEqual(all[i]!.probability);
    expect(lid.predict('Guten Tag, wie geht es Ihnen heute?', 2)).toEqual(all.slice(0, 2));
  });

  it('reads only the first line, which is why every tagger replaces newlines first', () => {
    const first = lid.predict('hello my friend', 1);
    expect(lid.predict('hello my friend\nbonjour mon ami, comment allez-vous aujourd’hui', 1)).toEqual(first);
  });

  it('sends lone surrogates as U+FFFD without disturbing the next character', () => {
    expect(lid.predict('ab\ud800cd efg', -1)).toEqual(lid.predict('ab\ufffdcd efg', -1));
    expect(lid.predict('\udc00', -1)).toEqual(lid.predict('\ufffd', -1));
  });

  it('predicts on empty text (fastText still sees the end-of-line token)', () => {
    expect(lid.predict('', 1)).toHaveLength(1);
  });
});
