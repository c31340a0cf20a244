// Hard input for every built-in tagger: rows stay aligned, bad records fail with file:line, time stays linear.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeJq } from '../mix/filters/jq/index.js';
import { readJsonlFile, tempDir, writeJsonl } from '../testing.js';
import { TaggerRegistry } from './registry.js';
import { runTag } from './runtime.js';

const { dir, cleanup } = tempDir();
afterAll(() => {
  cleanup();
  disposeJq();
});

const sentence = 'The quick brown fox jumps over the lazy dog near the river bank. ';
const HARD: { id: string; text: string }[] = [
  { id: 'empty', text: '' },
  { id: 'whitespace', text: ' \n\n\t  \n ' },
  { id: 'lone-surrogates', text: 'abc \ud800 def \udfff ghi\n\ud83d' },
  { id: 'emoji-run', text: '😊'.repeat(100_000) },
  { id: 'big', text: (sentence.repeat(12) + '\n').repeat(1400) }, // ≈ 1 MB
  { id: 'normal', text: 'Contact me at jane.doe@example.com or 192.168.0.1.\nAnother line here, with words.\n\nA new paragraph…' },
];

/** Taggers that need a user-supplied file (model, block list) are exercised in their own tests. */
const needsOptions = (name: string): boolean => {
  const spec = new TaggerRegistry().get(name);
  return spec.options !== undefined && !spec.options.safeParse({}).success;
};

describe('every built-in tagger on hard input', () => {
  const names = new TaggerRegistry()
    .list()
    .map((s) => s.name)
    .filter((n) => !needsOptions(n));

  it('has taggers to test', () => expect(names.length).toBeGreaterThan(20));

  for (const name of names) {
    it(`${name}: one aligned row per document, linear time`, async () => {
      const docsPath = join(dir, `${name}/documents/hard.jsonl`);
      writeJsonl(docsPath, HARD);
      const t = performance.now();
      await runTag({ documents: [docsPath], taggers: [name], experiment: 'x', cwd: dir });
      const ms = performance.now() - t;
      const rows = readJsonlFile(join(dir, `${name}/attributes/x/hard.jsonl`));
      expect(rows.map((r) => r.id)).toEqual(HARD.map((d) => d.id));
      // ≈ 1.6 MB of text in all: a linear tagger at ≥ 1 MB/s stays well inside this budget.
      expect(ms).toBeLessThan(20_000);
    });
  }
});

describe('a 10 MB document', () => {
  it('goes through the bench taggers and the FineWeb filters in one read, aligned, in linear time', async () => {
    const words = 'river town people market morning evening bridge garden school teacher children family winter'.split(' ');
    let text = '';
    for (let i = 0; text.length < 10_000_000; i++) text += `${words[i % 13]} ${words[(i * 7) % 13]} ${words[(i * 5) % 13]}${i % 11 === 0 ? '.\n' : ' '}`;
    const docsPath = join(dir, 'ten/documents/big.jsonl');
    writeJsonl(docsPath, [{ id: 'small', text: 'A small document.' }, { id: 'ten-mb', text }, { id: 'after', text: 'Another one.' }]);
    const taggers = ['gopher_v1', 'c4_v2', 'fineweb_quality', 'pii_regex_with_counts_fast_v2', 'gopher_quality', 'gopher_repetition', 'lid176'];
    const t = performance.now();
    await runTag({ documents: [docsPath], taggers, experiment: 'x', cwd: dir });
    expect(performance.now() - t).toBeLessThan(45_000);
    const rows = readJsonlFile(join(dir, 'ten/attributes/x/big.jsonl'));
    expect(rows.map((r) => r.id)).toEqual(['small', 'ten-mb', 'after']);
    const wc = (rows[1]!.attributes as Record<string, number[][]>).x__gopher_v1__word_count![0]!;
    expect(wc[1]).toBe(text.length);
    expect(wc[2]).toBeGreaterThan(1_000_000);
  }, 60_000);
});

describe('records a tagger cannot read', () => {
  it('a missing text field fails with file:line; --skip-bad-lines writes an empty, aligned row', async () => {
    const docsPath = join(dir, 'missing/documents/m.jsonl');
    writeJsonl(docsPath, [{ id: 'a', text: 'fine' }, { id: 'b' }, { id: 'c', text: 'also fine' }]);
    await expect(runTag({ documents: [docsPath], taggers: ['char_length_v1'], cwd: dir })).rejects.toThrow(/m\.jsonl:2: document has no 'text'/);
    const s = await runTag({ documents: [docsPath], taggers: ['char_length_v1'], cwd: dir, skipBadLines: true });
    expect(s.badLines).toBe(1);
    const rows = readJsonlFile(join(dir, 'missing/attributes/char_length_v1/m.jsonl'));
    expect(rows.map((r) => r.id)).toEqual(['a', null, 'c']);
    expect(rows[1]!.attributes).toEqual({});
  });

  it('a non-string id fails with file:line (Dolma requires string ids for tagging)', async () => {
    const docsPath = join(dir, 'intid/documents/i.jsonl');
    writeJsonl(docsPath, [{ id: 7, text: 'x' }]);
    await expect(runTag({ documents: [docsPath], taggers: ['char_length_v1'], cwd: dir })).rejects.toThrow(/i\.jsonl:1: document 'id' must be a string/);
  });
});
