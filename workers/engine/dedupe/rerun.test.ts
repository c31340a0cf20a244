// Resume and rerun: the filter's manifest makes a rerun reproduce the first run instead of flagging everything.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonlFile, writeJsonl } from '../testing.js';
import { loadManifest } from '../manifest/read.js';
import { manifestPathFor } from '../manifest/schema.js';
import { attributeLockPath } from '../io/attribute-lock.js';
import { runDedupe } from './index.js';
import { parseConfig, readFixtureConfig, scratchWithFixture, withOverrides } from './test-helpers.js';


function setup(overrides: Record<string, unknown> = {}): { dir: string; out: string; cfg: ReturnType<typeof parseConfig> } {
  const t = scratchWithFixture();
  const cfg = parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), overrides));
  return { dir: t.dir, out: join(t.dir, 'deduper/attributes/dedupe_paragraphs/000.json.gz'), cfg };
}

describe('dedupe reruns', () => {
  it('rerunning the same config on the same files keeps the first run’s attributes', async () => {
    const { dir, out, cfg } = setup();
    const first = await runDedupe(cfg, { cwd: dir });
    const bytes = readFileSync(out);
    const second = await runDedupe(cfg, { cwd: dir });
    expect(first.files[0]?.status).toBe('deduped');
    expect(second.files[0]?.status).toBe('kept');
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(second.bloom.insertions).toBe(first.bloom.insertions);
  });

  it('the run manifest lists the filter as an input only when it holds what this run did not make', async () => {
    const { dir, cfg } = setup({ documents: ['deduper/documents/000.json.gz'] });
    const roles = async (): Promise<{ in: boolean; out: boolean }> => {
      const m = (await loadManifest(manifestPathFor(join(dir, 'deduper/attributes/dedupe_paragraphs')))).manifest;
      return { in: m.inputs.some((i) => i.role === 'bloom_filter'), out: m.outputs.some((o) => o.role === 'bloom_filter') };
    };
    await runDedupe(cfg, { cwd: dir });
    expect(await roles()).toEqual({ in: false, out: true });
    // The same run again (or resumed after a stop that saved the filter): its own state, not an input.
    await runDedupe(cfg, { cwd: dir });
    expect(await roles()).toEqual({ in: false, out: true });
    // The filter reused for other documents holds the first run's keys: an input of this run.
    const docs = readJsonlFile(join(dir, 'deduper/documents/000.json.gz'));
    writeJsonl(join(dir, 'deduper/documents/001.json.gz'), docs.slice(0, 1));
    await runDedupe(parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), { documents: ['deduper/documents/001.json.gz'] })), { cwd: dir });
    expect(await roles()).toEqual({ in: true, out: true });
  });

  it('a rerun after a run killed between saving its filter and releasing its locks removes those locks', async () => {
    const { dir, out, cfg } = setup();
    await runDedupe(cfg, { cwd: dir });
    const bytes = readFileSync(out);
    // What the kill leaves: the filter and its manifest hold the file, and the dead run's lock is still there.
    const lock = attributeLockPath(out);
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, `${hostname()}\n${2 ** 22 + 12345}\nkilled-run\nassay dedupe\n`);
    const logs: string[] = [];
    const again = await runDedupe(cfg, { cwd: dir, log: (l) => logs.push(l) });
    expect(again.files[0]?.status).toBe('kept');
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(logs.some((l) => l.includes('taking over') && l.includes('the process is gone'))).toBe(true);
    expect(readdirSync(dirname(out)).filter((n) => !n.endsWith('.json.gz') && n !== '.assay')).toEqual([]);
  });

  it('a new file deduped against a saved filter sees the earlier file’s keys', async () => {
    const { dir, cfg } = setup({ documents: ['deduper/documents/*.json.gz'] });
    await runDedupe(cfg, { cwd: dir });
    const docs = readJsonlFile(join(dir, 'deduper/documents/000.json.gz'));
    writeJsonl(join(dir, 'deduper/documents/001.json.gz'), docs.slice(0, 1));
    const s = await runDedupe(cfg, { cwd: dir });
    expect(s.files.map((f) => f.status)).toEqual(['kept', 'deduped']);
    const row = readJsonlFile(join(dir, 'deduper/attributes/dedupe_paragraphs/001.json.gz'))[0] as { attributes: Record<string, unknown[]> };
    expect(row.attributes.bff_duplicate_paragraph_spans?.length).toBeGreaterThan(5);
  });

  it.each([
    ['its output is deleted', (out: string, _in: string) => writeFileSync(out, ''), /changed since/],
    ['its input changes', (_out: string, input: string) => utimesSync(input, new Date(), new Date(2001, 1, 1)), /file changed/],
  ])('refuses to recompute a file the filter holds when %s', async (_name, change, message) => {
    const { dir, out, cfg } = setup();
    await runDedupe(cfg, { cwd: dir });
    change(out, join(dir, 'deduper/documents/000.json.gz'));
    await expect(runDedupe(cfg, { cwd: dir })).rejects.toThrow(message);
  });

  it('rejects a saved filter whose size differs from the config', async () => {
    const { dir, cfg } = setup();
    await runDedupe(cfg, { cwd: dir });
    const other = parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), { 'bloom_filter.estimated_doc_count': 5_000_000 }));
    await expect(runDedupe(other, { cwd: dir })).rejects.toMatchObject({ code: 'MISMATCH', file: join(dir, 'work/para_bloom_filter.bin') });
  });

  it('read_only filters are checked but never written', async () => {
    const { dir, out, cfg } = setup();
    await runDedupe(cfg, { cwd: dir });
    const filter = join(dir, 'work/para_bloom_filter.bin');
    const before = readFileSync(filter);
    const ro = parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), { 'bloom_filter.read_only': true }));
    const s = await runDedupe(ro, { cwd: dir });
    expect(readFileSync(filter).equals(before)).toBe(true);
    expect(s.bloom.saved).toBe(false);
    // Every paragraph of the file is in the filter, so each non-empty one is now reported.
    const rows = readJsonlFile(out) as { attributes: Record<string, unknown[]> }[];
    expect(rows.every((r) => (r.attributes.bff_duplicate_paragraph_spans?.length ?? 0) > 0)).toBe(true);
  });

  it('a cancelled run leaves no output and no filter', async () => {
    const { dir, out, cfg } = setup();
    const ac = new AbortController();
    ac.abort();
    await expect(runDedupe(cfg, { cwd: dir, signal: ac.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(() => readFileSync(out)).toThrow();
    expect(() => readFileSync(`${out}.tmp`)).toThrow();
    expect(() => readFileSync(join(dir, 'work/para_bloom_filter.bin'))).toThrow();
  });

  it('partitions suffix the directory and key and split the paragraphs between them', async () => {
    const totals: number[] = [];
    for (const idx of [0, 1]) {
      const { dir, cfg } = setup({ 'dedupe.num_partitions': 2, 'dedupe.partition_index': idx });
      await runDedupe(cfg, { cwd: dir });
      const rows = readJsonlFile(join(dir, `deduper/attributes/dedupe_paragraphs_${idx}/000.json.gz`)) as { attributes: Record<string, unknown[]> }[];
      totals.push(rows.reduce((n, r) => n + (r.attributes[`bff_duplicate_paragraph_spans_${idx}`]?.length ?? 0), 0));
    }
    expect(totals[0]! + totals[1]!).toBe(43);
    expect(Math.min(...totals)).toBeGreaterThan(0);
  });
});

describe('dedupe bloom filter lock', () => {
  const filterOf = (dir: string, cfg: ReturnType<typeof parseConfig>): string => resolve(dir, cfg.bloom_filter.file);

  it('one run at a time writes a filter: another live run’s lock refuses this one, naming the filter and the run', async () => {
    const { dir, out, cfg } = setup();
    const filter = filterOf(dir, cfg);
    mkdirSync(dirname(filter), { recursive: true });
    // pid 1 always runs.
    writeFileSync(`${filter}.lock`, `${hostname()}\n1\nother\nassay dedupe\n`);
    await expect(runDedupe(cfg, { cwd: dir })).rejects.toThrow(
      `${filter}: another run is using this file (assay dedupe, process 1 on ${hostname()}); wait for it to finish, or give this run another file`,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(filter)).toBe(false);
    // The holder is gone: its lock is taken over, logged, and removed when the run ends.
    writeFileSync(`${filter}.lock`, `${hostname()}\n${2 ** 22 + 12345}\nother\nassay dedupe\n`);
    const logs: string[] = [];
    const s = await runDedupe(cfg, { cwd: dir, log: (l) => logs.push(l) });
    expect(s.bloom.saved).toBe(true);
    expect(existsSync(`${filter}.lock`)).toBe(false);
    expect(logs.some((l) => l.includes('taking over') && l.includes('the process is gone'))).toBe(true);
    // A run that only reads the filter takes no lock: a live writer's lock does not stop it.
    writeFileSync(`${filter}.lock`, `${hostname()}\n1\nother\nassay dedupe\n`);
    const ro = parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), { bloom_filter: { ...cfg.bloom_filter, read_only: true } }));
    await expect(runDedupe(ro, { cwd: dir })).resolves.toMatchObject({ bloom: { readOnly: true, saved: false } });
  });
  it('two runs writing the same attribute files at once (read_only, so no filter lock) both succeed, one after the other', async () => {
    const { dir, out, cfg } = setup();
    await runDedupe(cfg, { cwd: dir });
    const ro = parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), { bloom_filter: { ...cfg.bloom_filter, read_only: true } }));
    await runDedupe(ro, { cwd: dir });
    const want = readJsonlFile(out);
    rmSync(out);
    const logs: string[] = [];
    await Promise.all([runDedupe(ro, { cwd: dir, log: (l) => logs.push(l) }), runDedupe(ro, { cwd: dir, log: (l) => logs.push(l) })]);
    expect(readJsonlFile(out)).toEqual(want);
    // The second waited (unless the first had finished before it looked: the interleaving is the event loop's).
    expect(logs.filter((l) => l.includes(`waiting for assay dedupe, process ${process.pid} on ${hostname()}`) && l.includes('000.json.gz')).length).toBeLessThanOrEqual(1);
    // Nothing of the locks or the runs' temporary files is left.
    expect(readdirSync(dirname(out)).filter((n) => !n.endsWith('.json.gz') && n !== '.assay')).toEqual([]);

    // A live holder of the file's lock is waited for; the run writes the file once the lock is released.
    rmSync(out);
    const lock = attributeLockPath(out);
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, `${hostname()}\n${process.pid}\nother-run\nassay dedupe\n`);
    const waits: string[] = [];
    let finished = false;
    const run = runDedupe(ro, { cwd: dir, log: (l) => waits.push(l) }).then(() => (finished = true));
    await new Promise((r) => setTimeout(r, 500));
    expect(finished).toBe(false);
    expect(existsSync(out)).toBe(false);
    expect(waits.filter((l) => l.includes('waiting for assay dedupe, process') && l.includes('000.json.gz'))).toHaveLength(1);
    rmSync(lock);
    await run;
    expect(readJsonlFile(out)).toEqual(want);
    expect(readdirSync(dirname(out)).filter((n) => !n.endsWith('.json.gz') && n !== '.assay')).toEqual([]);
  });
});
