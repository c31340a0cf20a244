// runMinhash end to end: row-for-row attributes, spilled partitions, work-dir cleanup, cancellation, resume, located errors.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minhashConfig, type MinhashConfigInput } from '../../../../shared/dedupe/minhash-schema.js';
import { readJsonlFile,  writeJsonl, scratchDir } from '../../testing.js';
import { attributeLockPath } from '../../io/attribute-lock.js';
import { runMinhash } from './index.js';
import { document, editWords, Rng } from './test-corpus.js';


/** 400 docs in two files: 100 bases, each with an exact copy or a light edit later on, plus short docs. */
function corpus(): { dir: string; docs: string } {
  const t = { dir: scratchDir('assay-minhash-run-') };
  const rng = new Rng(7);
  const rows: { id: string; text: string }[] = [];
  const bases = Array.from({ length: 100 }, () => document(rng, 120));
  bases.forEach((b, i) => rows.push({ id: `base-${i}`, text: b.join(' ') }));
  bases.forEach((b, i) => rows.push({ id: `copy-${i}`, text: (i % 2 ? editWords(rng, b, 1) : b).join(' ') }));
  for (let i = 0; i < 190; i++) rows.push({ id: `other-${i}`, text: document(rng, 100).join(' ') });
  for (let i = 0; i < 10; i++) rows.push({ id: `short-${i}`, text: 'too short' });
  const docs = join(t.dir, 'documents');
  mkdirSync(docs);
  writeJsonl(join(docs, '1.jsonl'), rows.slice(0, 150));
  writeJsonl(join(docs, '2.jsonl'), rows.slice(150));
  return { dir: t.dir, docs };
}

const config = (docs: string, extra: Partial<MinhashConfigInput> = {}) => minhashConfig.parse({ documents: [join(docs, '*.jsonl')], name: 'mh', ...extra });

describe('runMinhash', () => {
  it('writes one attribute row per document, marks later copies as duplicates of the first', async () => {
    const { dir, docs } = corpus();
    const s = await runMinhash(config(docs));
    expect(s).toMatchObject({ documents: 400, signed: 390, clusters: 100, duplicates: 100, clusteredDocs: 200 });
    const rows = [...readJsonlFile(join(dir, 'attributes/mh/1.jsonl')), ...readJsonlFile(join(dir, 'attributes/mh/2.jsonl'))];
    expect(rows).toHaveLength(400);
    const base0 = rows[0] as { attributes: Record<string, unknown> };
    const len = Buffer.byteLength((readJsonlFile(join(docs, '1.jsonl'))[0] as { text: string }).text);
    expect(base0.attributes).toEqual({ mh__minhash_cluster_id: [[0, len, 0]], mh__minhash_cluster_size: [[0, len, 2]] });
    const copy7 = rows.find((r) => r.id === 'copy-7') as { attributes: Record<string, unknown> };
    expect(copy7.attributes['mh__minhash_duplicate_of']).toBe('base-7');
    expect((copy7.attributes['mh__minhash_cluster_id'] as number[][])[0]?.[2]).toBe(7);
    expect(rows.find((r) => r.id === 'short-3')?.attributes).toEqual({});
    expect(readdirSync(join(dir, 'attributes/mh')).sort()).toEqual(['.assay', '1.jsonl', '2.jsonl']);
  });

  it('gives the same clusters when buckets spill into partitions, and removes its work dir', async () => {
    const { dir, docs } = corpus();
    const whole = await runMinhash(config(docs));
    const a = readJsonlFile(join(dir, 'attributes/mh/2.jsonl'));
    const work = join(dir, 'work');
    const split = await runMinhash(config(docs, { max_memory_mb: 0.002, work_dir: work }));
    expect(split.maxPartitions).toBeGreaterThan(1);
    expect(readJsonlFile(join(dir, 'attributes/mh/2.jsonl'))).toEqual(a);
    expect({ ...split, elapsedSec: 0, maxPartitions: 1 }).toEqual({ ...whole, elapsedSec: 0 });
    expect(readdirSync(work)).toEqual([]);
  });

  it('leaves no outputs and no work files when cancelled', async () => {
    const { dir, docs } = corpus();
    const ac = new AbortController();
    const run = runMinhash(config(docs, { work_dir: join(dir, 'work') }), { signal: ac.signal, onProgress: () => ac.abort() });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(dir, 'attributes/mh/1.jsonl'))).toBe(false);
    // Only the resume cache of files finished before the cancel may stay (no spill or temporary files).
    expect(readdirSync(join(dir, 'work')).filter((n) => n !== '.minhash-resume')).toEqual([]);
    const left = existsSync(join(dir, 'attributes/mh')) ? readdirSync(join(dir, 'attributes/mh')) : [];
    expect(left).toEqual([]);
  });

  it('names file and line of a document without text, and cleans up', async () => {
    const { dir, docs } = corpus();
    writeFileSync(join(docs, '3.jsonl'), '{"id":"x","text":"a b c d e f"}\n{"id":"y"}\n');
    await expect(runMinhash(config(docs, { work_dir: join(dir, 'w') }))).rejects.toThrow(/3\.jsonl:2: document has no "text" field/);
    expect(readdirSync(join(dir, 'w'))).toEqual(['.minhash-resume']);
    expect(existsSync(join(dir, 'attributes/mh/1.jsonl'))).toBe(false);
  });

  it('resumes after a failed run: finished files are not signed again, and the result equals a clean run', async () => {
    const { dir, docs } = corpus();
    const work = join(dir, 'work');
    const second = join(docs, '2.jsonl');
    const good = readFileSync(second);
    appendFileSync(second, '{"id":"bad"}\n');
    await expect(runMinhash(config(docs, { work_dir: work }))).rejects.toThrow(/2\.jsonl:251: document has no "text" field/);
    const [cfgKey] = readdirSync(join(work, '.minhash-resume'));
    expect(readdirSync(join(work, '.minhash-resume', cfgKey as string))).toHaveLength(1);

    writeFileSync(second, good);
    const logs: string[] = [];
    const resumed = await runMinhash(config(docs, { work_dir: work }), { log: (m) => logs.push(m) });
    expect(resumed.resumedFiles).toBe(1);
    expect(logs.join('\n')).toMatch(/reused the signatures of 1 file/);
    expect(readdirSync(work)).toEqual([]);
    const outputs = ['1.jsonl', '2.jsonl'].map((f) => readJsonlFile(join(dir, 'attributes/mh', f)));

    const clean = await runMinhash(config(docs, { work_dir: work }));
    expect(clean.resumedFiles).toBe(0);
    expect({ ...resumed, elapsedSec: 0, resumedFiles: 0 }).toEqual({ ...clean, elapsedSec: 0 });
    expect(['1.jsonl', '2.jsonl'].map((f) => readJsonlFile(join(dir, 'attributes/mh', f)))).toEqual(outputs);
  });

  it('re-signs a finished entry that lost a file (a run killed while deleting its cache), rather than failing on it', async () => {
    const { dir, docs } = corpus();
    const work = join(dir, 'work');
    const second = join(docs, '2.jsonl');
    const good = readFileSync(second);
    appendFileSync(second, '{"id":"bad"}\n');
    await expect(runMinhash(config(docs, { work_dir: work }))).rejects.toThrow(/document has no "text" field/);
    const [cfgKey] = readdirSync(join(work, '.minhash-resume'));
    const [entry] = readdirSync(join(work, '.minhash-resume', cfgKey as string));
    rmSync(join(work, '.minhash-resume', cfgKey as string, entry as string, 'bucket_000.bin'));
    writeFileSync(second, good);
    const s = await runMinhash(config(docs, { work_dir: work }));
    expect(s.resumedFiles).toBe(0);
    expect(s.documents).toBe(400);
    expect(readdirSync(work)).toEqual([]);
  });

  it('two runs writing the same attributes at once both succeed, one after the other, with a clean run\'s output', async () => {
    const { dir, docs } = corpus();
    await runMinhash(config(docs));
    const want = ['1.jsonl', '2.jsonl'].map((f) => readJsonlFile(join(dir, 'attributes/mh', f)));
    rmSync(join(dir, 'attributes'), { recursive: true });
    const logs: string[] = [];
    const log = (l: string): number => logs.push(l);
    const runs = await Promise.all([runMinhash(config(docs), { log }), runMinhash(config(docs), { log })]);
    expect(runs.map((r) => r.duplicates)).toEqual([100, 100]);
    expect(['1.jsonl', '2.jsonl'].map((f) => readJsonlFile(join(dir, 'attributes/mh', f)))).toEqual(want);
    // The second waited (unless the first had finished before it looked: the interleaving is the event loop's).
    expect(logs.filter((l) => l.includes('waiting for assay minhash, process')).length).toBeLessThanOrEqual(1);
    // No lock, lock folder, resume cache or spill folder left.
    expect(readdirSync(join(dir, 'attributes/mh')).sort()).toEqual(['.assay', '1.jsonl', '2.jsonl']);

    // A live holder of one file's lock is waited for; the run writes every file once the lock is released.
    rmSync(join(dir, 'attributes'), { recursive: true });
    const lock = attributeLockPath(join(dir, 'attributes/mh/2.jsonl'));
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, `${hostname()}\n${process.pid}\nother-run\nassay minhash\n`);
    const waits: string[] = [];
    let finished = false;
    const run = runMinhash(config(docs), { log: (l) => waits.push(l) }).then(() => (finished = true));
    await new Promise((r) => setTimeout(r, 500));
    expect(finished).toBe(false);
    expect(existsSync(join(dir, 'attributes/mh/1.jsonl'))).toBe(false);
    expect(waits.filter((l) => l.includes('waiting for assay minhash, process') && l.includes('2.jsonl'))).toHaveLength(1);
    rmSync(lock);
    await run;
    expect(['1.jsonl', '2.jsonl'].map((f) => readJsonlFile(join(dir, 'attributes/mh', f)))).toEqual(want);
    expect(readdirSync(join(dir, 'attributes/mh')).sort()).toEqual(['.assay', '1.jsonl', '2.jsonl']);
  });

  it('re-signs a file that changed since the unfinished run', async () => {
    const { dir, docs } = corpus();
    const work = join(dir, 'work');
    appendFileSync(join(docs, '2.jsonl'), 'not json\n');
    await expect(runMinhash(config(docs, { work_dir: work }))).rejects.toThrow(/malformed JSON/);
    writeJsonl(join(docs, '1.jsonl'), [{ id: 'only', text: 'a completely different first file with enough words to sign it' }]);
    writeFileSync(join(docs, '2.jsonl'), readFileSync(join(docs, '2.jsonl'), 'utf8').replace('not json\n', ''));
    const s = await runMinhash(config(docs, { work_dir: work }));
    expect(s.resumedFiles).toBe(0);
    expect(s.documents).toBe(251);
  });
});
