// The tag runtime: Dolma's layout and key rules (conformance runtime cases), markers, pool, custom modules.
import { cpSync, existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, readJsonlFile,  writeJsonl, scratchDir } from '../testing.js';
import { markerPath, runTag } from './runtime.js';

function scratch(): string {
  const dir = scratchDir();
  return dir;
}

/** `[start, end, score]` with integer offsets and numeric score. */
const isSpan = (v: unknown): boolean => Array.isArray(v) && v.length === 3 && Number.isInteger(v[0]) && Number.isInteger(v[1]) && typeof v[2] === 'number';

describe('tag runtime (Dolma test_runtime.py cases)', () => {
  it('c4_v1 on the mixer documents: one row per input row, same ids, <tagger>__c4_v1__<type> keys', async () => {
    const dir = scratch();
    cpSync(join(CONFORMANCE, 'dolma/mixer/documents'), join(dir, 'documents'), { recursive: true });
    await runTag({ documents: ['documents/000.json.gz'], taggers: ['c4_v1'], cwd: dir });
    const docs = readJsonlFile(join(dir, 'documents/000.json.gz'));
    const rows = readJsonlFile(join(dir, 'attributes/c4_v1/000.json.gz'));
    expect(rows.map((r) => r.id)).toEqual(docs.map((d) => d.id));
    for (const [i, row] of rows.entries()) {
      expect(Object.keys(row)).toEqual(['id', 'attributes', 'source']);
      for (const [key, spans] of Object.entries(row.attributes as Record<string, unknown[]>)) {
        const parts = key.split('__');
        expect(parts).toHaveLength(3);
        expect(parts.slice(0, 2)).toEqual(['c4_v1', 'c4_v1']);
        expect(spans.every(isSpan)).toBe(true);
        if (spans.length === 1 && (spans[0] as number[])[0] === 0 && key.endsWith('line_bullets')) {
          expect((spans[0] as number[])[1]).toBe([...String(docs[i]!.text)].length);
        }
      }
    }
  });

  it('an experiment name sets both the directory and the key prefix; all globs give the same output', async () => {
    const outputs: string[] = [];
    for (const pattern of ['documents/000.json.gz', 'documents/*', 'documents/**/*.gz']) {
      const dir = scratch();
      cpSync(join(CONFORMANCE, 'dolma/mixer/documents'), join(dir, 'documents'), { recursive: true });
      await runTag({ documents: [pattern], taggers: ['c4_v1'], experiment: 'test', cwd: dir });
      const rows = readJsonlFile(join(dir, 'attributes/test/000.json.gz'));
      expect(Object.keys(rows[0]!.attributes as object).every((k) => k.startsWith('test__c4_v1__'))).toBe(true);
      outputs.push(JSON.stringify(rows));
    }
    expect(new Set(outputs).size).toBe(1);
  });

  it('multiple files: exactly one attribute file per input, same rows and ids, nothing else created', async () => {
    const dir = scratch();
    cpSync(join(CONFORMANCE, 'dolma/taggers/multiple_files/documents'), join(dir, 'documents'), { recursive: true });
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['char_length_v1'], cwd: dir, processes: 2 });
    expect(readdirSync(join(dir, 'attributes'))).toEqual(['char_length_v1']);
    const names = readdirSync(join(dir, 'attributes/char_length_v1')).filter((f) => !f.startsWith('.'));
    expect(names.sort()).toEqual(readdirSync(join(dir, 'documents')).sort());
    for (const n of names) {
      const docs = readJsonlFile(join(dir, 'documents', n));
      const rows = readJsonlFile(join(dir, 'attributes/char_length_v1', n));
      expect(rows.map((r) => r.id)).toEqual(docs.map((d) => d.id));
      const lengths = rows.map((r) => (r.attributes as Record<string, number[][]>).char_length_v1__char_length_v1__length![0]![2]);
      expect(lengths).toEqual(docs.map((d) => [...String(d.text)].length));
    }
  });
});

describe('tag runtime: markers, resume, pool, custom taggers', () => {
  function corpus(files: number, per: number): string {
    const dir = scratch();
    for (let f = 0; f < files; f++) {
      writeJsonl(
        join(dir, `data/documents/part-${f}.jsonl.gz`),
        Array.from({ length: per }, (_, i) => ({ id: `${f}-${i}`, text: `héllo 😊 wörld number ${i}\n\nsecond paragraph here`, source: 's' })),
      );
    }
    return dir;
  }

  it('a completed file leaves a marker and is skipped on rerun; a changed input is re-tagged', async () => {
    const dir = corpus(2, 20);
    const first = await runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1'], cwd: dir });
    expect(first.files.map((f) => f.status)).toEqual(['tagged', 'tagged']);
    const out = join(dir, 'data/attributes/char_length_v1/part-0.jsonl.gz');
    expect(existsSync(markerPath(out))).toBe(true);
    const again = await runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1'], cwd: dir });
    expect(again.files.map((f) => f.status)).toEqual(['skipped', 'skipped']);
    const doc = join(dir, 'data/documents/part-1.jsonl.gz');
    utimesSync(doc, new Date(), new Date(Date.now() + 5000));
    const third = await runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1'], cwd: dir });
    expect(third.files.find((f) => f.input.endsWith('part-1.jsonl.gz'))?.status).toBe('tagged');
    expect(third.files.find((f) => f.input.endsWith('part-0.jsonl.gz'))?.status).toBe('skipped');
    const forced = await runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1'], cwd: dir, ignoreExisting: true });
    expect(forced.files.every((f) => f.status === 'tagged')).toBe(true);
  });

  it('2 processes write the same bytes as 1, and code-point offsets for astral text', async () => {
    const dir = corpus(4, 30);
    await runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1', 'whitespace_tokenizer_v1'], experiment: 'one', cwd: dir });
    await runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1', 'whitespace_tokenizer_v1'], experiment: 'two', cwd: dir, processes: 2 });
    for (let f = 0; f < 4; f++) {
      const a = readJsonlFile(join(dir, `data/attributes/one/part-${f}.jsonl.gz`));
      const b = readJsonlFile(join(dir, `data/attributes/two/part-${f}.jsonl.gz`));
      expect(JSON.stringify(b).replaceAll('two__', 'one__')).toBe(JSON.stringify(a));
      const len = (a[0]!.attributes as Record<string, number[][]>).one__char_length_v1__length![0]!;
      expect(len[1]).toBe([...'héllo 😊 wörld number 0\n\nsecond paragraph here'].length);
    }
  });

  it('loads a custom tagger from a TypeScript module path', async () => {
    const dir = corpus(1, 3);
    await runTag({
      documents: ['data/documents/*'],
      taggers: ['letter_e_count'],
      taggerModules: [join(import.meta.dirname, 'fixtures/custom-tagger.ts')],
      cwd: dir,
    });
    const rows = readJsonlFile(join(dir, 'data/attributes/letter_e_count/part-0.jsonl.gz'));
    expect((rows[0]!.attributes as Record<string, number[][]>).letter_e_count__letter_e_count__count![0]![2]).toBe(4); // number, second, here ×2
  });

  it('unknown taggers and bad options are config errors', async () => {
    const dir = corpus(1, 1);
    await expect(runTag({ documents: ['data/documents/*'], taggers: ['gopher_v9'], cwd: dir })).rejects.toMatchObject({ code: 'CONFIG' });
    await expect(runTag({ documents: ['nothing/*'], taggers: ['char_length_v1'], cwd: dir })).rejects.toThrow(/no documents match/);
  });

  it('cancels through an AbortSignal, leaving no output and no marker', async () => {
    const dir = corpus(3, 5000);
    const c = new AbortController();
    // Progress is throttled: abort on the first report, which comes once reading has started.
    const run = runTag({ documents: ['data/documents/*'], taggers: ['char_length_v1'], cwd: dir, signal: c.signal, onProgress: (p) => p.done > 0 && c.abort() });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    const outDir = join(dir, 'data/attributes/char_length_v1');
    expect(existsSync(outDir) ? readdirSync(outDir).filter((f) => !f.startsWith('.')) : []).toEqual([]);
  });
});
