// On a real single-node Slurm: tag, paragraph dedupe and mix as ≥ 4 array tasks equal the local run; resume and failures.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonl } from '../testing.js';
import { BUILT_COMMAND, SOURCE_COMMAND, startSlurm } from './testing.js';
import { ensureBuilt } from '../cli/run-cli.js';
import { httpBlock, perRecordGzip, warcRecord } from '../warc/testing.js';
import { finewebRows, writeFinewebParquet } from '../parquet/testing.js';

const BASE = '/tmp/assay-slurm-test';
let conf: string | null = null;
let stop: (() => void) | null = null;
let skip: string | null = null;

beforeAll(() => {
  ensureBuilt();
  const c = startSlurm(BASE);
  if ('skip' in c) {
    skip = c.skip;
    process.stderr.write(`Slurm tests skipped: ${c.skip}\n`);
  } else {
    ({ conf, stop } = c);
  }
}, 400_000);
afterAll(() => stop?.());

/** Runs the bundled CLI; its tasks start the same bundle. */
const assay = (cwd: string, ...args: string[]): { code: number; out: string; err: string } => run(BUILT_COMMAND, cwd, args);
/** Runs this checkout's sources through tsx: tasks then start with `--import <tsx loader>` (one test keeps that path). */
const assaySource = (cwd: string, ...args: string[]): { code: number; out: string; err: string } => run(SOURCE_COMMAND, cwd, args);

function run(command: string[], cwd: string, args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(command[0]!, [...command.slice(1), ...args], { cwd, encoding: 'utf8', env: { ...process.env, SLURM_CONF: conf ?? '' }, timeout: 170_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const PARAS = ['The quick brown fox jumps over the lazy dog.', 'Shared paragraph that appears in several files.', 'Another line of text, long enough to count.', 'Short.'];

/** Six documents files under `root/documents/`, with paragraphs repeated within and across files. */
function corpus(root: string): void {
  for (let f = 0; f < 6; f++) {
    writeJsonl(join(root, 'documents', `part-${f}.jsonl.gz`), Array.from({ length: 5 }, (_, d) => ({
      id: `f${f}-d${d}`,
      text: [PARAS[(f + d) % 4], PARAS[1], `Document ${f}/${d} has its own words.`, PARAS[(d * 3) % 4]].join('\n\n'),
      source: f % 2 ? 'web' : 'books',
    })));
  }
}

/** Every file under a folder (hidden ones left out), decompressed, by relative name. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name.split('/').some((s) => s.startsWith('.'))) continue;
    const p = join(dir, name);
    if (!/\.gz$/.test(name)) continue;
    out[name] = gunzipSync(readFileSync(p)).toString('utf8');
  }
  return out;
}

const sortedRows = (text: string): { id: string }[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string }).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

function twin(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  corpus(dir);
  return dir;
}

/** How many outputs a run manifest lists. */
const outputsIn = (manifest: string): number => (JSON.parse(readFileSync(manifest, 'utf8')) as { outputs: unknown[] }).outputs.length;
/** The command line of each array task of a run (its logging dir's run.json). */
const taskArgvs = (dir: string): string[][] => (JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { tasks: { argv: string[] }[] }).tasks.map((t) => t.argv);

describe('--executor slurm on a single-node cluster', () => {
  it('tag, paragraph dedupe (4 hash partitions), mix and index as 4 array tasks equal the local run', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `equal-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const [local, slurm] = [twin(root, 'local'), twin(root, 'slurm')];
    const dedupe = 'documents: [documents/*.jsonl.gz]\ndedupe:\n  name: dup\n  paragraphs: {attribute_name: bff_duplicate_paragraph_spans}\n  skip_empty: true\nbloom_filter: {file: bloom.bin, read_only: false, estimated_doc_count: 1000, desired_false_positive_rate: 0.0001}\n';
    const recipe = (out: string): string =>
      `streams:\n  - name: web\n    documents: [documents/*.jsonl.gz]\n    attributes: [char_length_v1, dup]\n    output: {path: ${out}, max_size_in_bytes: 400}\n` +
      `    filter:\n      exclude: ["$.attributes[?(@.char_length_v1__char_length_v1__length && @.char_length_v1__char_length_v1__length[0] && @.char_length_v1__char_length_v1__length[0][2] < 150)]"]\n` +
      `    span_replacement:\n      - {span: $.attributes.bff_duplicate_paragraph_spans, min_score: 0.5, replacement: ''}\n`;
    for (const dir of [local, slurm]) {
      writeFileSync(join(dir, 'dedupe.yaml'), dedupe);
      writeFileSync(join(dir, 'mix.yaml'), recipe('out'));
    }
    const slurmFlags = ['--executor', 'slurm', '--tasks', '4', '--wait'];
    // Tag with --ignore-existing: the tasks tag their files, and the final step (the whole command again) must not redo them.
    for (const [args, name] of [[['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1', '--ignore-existing'], 'tag'], [['dedupe', '-c', 'dedupe.yaml'], 'dedupe'], [['mix', '-c', 'mix.yaml'], 'mix']] as const) {
      const l = assay(local, ...args, '-q');
      expect(l.code, l.err).toBe(0);
      const s = assay(slurm, ...args, ...slurmFlags);
      expect(s.code, `${s.out}\n${s.err}`).toBe(0);
      expect(s.out).toMatch(new RegExp(`submitted 4 of 4 task\\(s\\) as array job \\d+ \\(--array=0-3\\)`));
      expect(s.out).toContain('tasks 4: 4 done; final step done');
      expect(existsSync(join(slurm, '.assay-slurm', name, 'completions', 'final.json'))).toBe(true);
    }
    expect(readFileSync(join(slurm, '.assay-slurm/tag/logs/final.log'), 'utf8')).toMatch(/tagged 0 file\(s\).*; skipped 6 already tagged/);
    // The tasks write no run manifest (two ending at once raced for it); the final step's lists every file.
    expect(taskArgvs(join(slurm, '.assay-slurm/tag')).every((a) => a.includes('--no-manifest'))).toBe(true);
    expect(outputsIn(join(slurm, 'attributes/char_length_v1/.assay/manifest.json'))).toBe(6);
    // Tag and dedupe: the same rows in the same files (dedupe's merged set under its unpartitioned name and key).
    const [la, sa] = [tree(join(local, 'attributes')), tree(join(slurm, 'attributes'))];
    for (const name of Object.keys(la)) expect(sortedRows(sa[name] ?? ''), name).toEqual(sortedRows(la[name] ?? ''));
    expect(Object.keys(la).filter((n) => n.startsWith('dup/'))).toHaveLength(6);
    expect(la['dup/part-2.jsonl.gz']).toContain('"bff_duplicate_paragraph_spans":[[');
    // Mix: the same shards with the same documents; the final step wrote the ledger, summary and manifest once.
    const [lo, so] = [tree(join(local, 'out')), tree(join(slurm, 'out'))];
    expect(Object.keys(so).sort()).toEqual(Object.keys(lo).sort());
    for (const name of Object.keys(lo)) expect(so[name], name).toBe(lo[name]);
    for (const f of ['ledger.sqlite', 'manifest.json', 'mix-summary-web.json']) expect(existsSync(join(slurm, 'out', '.assay', f)), f).toBe(true);
    const summary = (dir: string): unknown => (({ docs, droppedBy }) => ({ docs, droppedBy }))(JSON.parse(readFileSync(join(dir, 'out/.assay/mix-summary-web.json'), 'utf8')) as { docs: unknown; droppedBy: unknown });
    expect(summary(slurm)).toEqual(summary(local));
    // Index: 4 tasks read the files, the final step writes the index; a preview over it is the local index's.
    expect(assay(local, 'index', '.', '-q').code).toBe(0);
    const si = assay(slurm, 'index', '.', '--executor', 'slurm', '--tasks', '4', '--wait');
    expect(si.code, `${si.out}\n${si.err}`).toBe(0);
    expect(readFileSync(join(slurm, '.assay-slurm/index/logs/final.log'), 'utf8')).toContain('6 file(s) read by the array tasks; 0 read here');
    const preview = (dir: string): unknown => {
      const r = assay(dir, 'preview', '-c', 'mix.yaml', '--index', '.', '--json');
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out.replace(/"(ms|elapsedMs|elapsedSec)":[\d.]+/g, '"$1":0')) as unknown;
    };
    expect(preview(slurm)).toEqual(preview(local));
  }, 300_000);

  it('tokens (4 groups) give the same documents and tokens as a local run; MinHash in three stages (4 signature tasks, 4 bucket tasks, cluster) gives the local clusters', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `stages-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const [local, slurm] = [twin(root, 'local'), twin(root, 'slurm')];
    const tokens = ['tokens', '--documents', 'documents/*.jsonl.gz', '--destination', 'tokens', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '--max_size', '200'];
    const minhash = ['minhash', '-c', 'minhash.yaml'];
    for (const dir of [local, slurm]) writeFileSync(join(dir, 'minhash.yaml'), 'documents: [documents/*.jsonl.gz]\nname: near\nnum_buckets: 4\nhashes_per_bucket: 10\n');
    for (const [args, stages] of [[tokens, ''], [minhash, ' buckets 4: 4 done;']] as const) {
      const l = assay(local, ...args, '-q');
      expect(l.code, l.err).toBe(0);
      const s = assay(slurm, ...args, '--executor', 'slurm', '--tasks', '4', '--wait');
      expect(s.code, `${s.out}\n${s.err}`).toBe(0);
      // MinHash as DataTrove stages it: signatures (4 tasks) → one task per bucket (afterok) → cluster and write.
      expect(s.out).toContain(`tasks 4: 4 done;${stages} final step done`);
    }
    expect(readdirSync(join(slurm, '.assay-slurm/minhash/logs')).sort()).toEqual(['buckets-task-0.log', 'buckets-task-1.log', 'buckets-task-2.log', 'buckets-task-3.log', 'final.log', 'task-0.log', 'task-1.log', 'task-2.log', 'task-3.log']);
    // Tokens: every document's token ids, as (id, ids) pairs, read back through each part's .csv.gz offsets.
    const documentsOf = (dir: string): string[] => {
      const out: string[] = [];
      for (const name of readdirSync(join(dir, 'tokens')).filter((n) => n.endsWith('.npy'))) {
        const ids = new Uint16Array(new Uint8Array(readFileSync(join(dir, 'tokens', name))).buffer);
        for (const row of gunzipSync(readFileSync(join(dir, 'tokens', name.replace(/\.npy$/, '.csv.gz')))).toString('utf8').split('\n').filter(Boolean)) {
          const [start, end, id] = row.split(',');
          out.push(`${id}:${Array.from(ids.subarray(Number(start), Number(end))).join(' ')}`);
        }
      }
      return out.sort();
    };
    expect(documentsOf(slurm)).toHaveLength(30);
    expect(documentsOf(slurm)).toEqual(documentsOf(local));
    expect(readdirSync(join(slurm, 'tokens')).filter((n) => n.endsWith('.npy')).length).toBeGreaterThanOrEqual(4);
    expect(existsSync(join(slurm, 'tokens/.assay/manifest.json'))).toBe(true);
    // MinHash: the same cluster attributes, file by file.
    const [la, sa] = [tree(join(local, 'attributes/near')), tree(join(slurm, 'attributes/near'))];
    expect(Object.keys(sa).sort()).toEqual(Object.keys(la).sort());
    for (const name of Object.keys(la)) expect(sa[name], name).toBe(la[name]);
    // Clusters of several sizes and documents in none: not a trivial all-or-nothing clustering.
    const sizes = new Set([...Object.values(la).join('').matchAll(/"near__minhash_cluster_size":\[\[0,\d+,(\d+)\]\]/g)].map((m) => m[1]));
    expect(sizes.size).toBeGreaterThanOrEqual(3);
  }, 300_000);

  it('warc (4 tasks, WARC files in nested folders) and import (2 tasks) write the documents of the local run under the same names', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `warc-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    for (const dir of ['local', 'slurm']) {
      for (let f = 0; f < 5; f++) {
        const pages = Array.from({ length: 3 }, (_, p) => {
          const html = `<html><body><nav><a href="/">Home</a></nav><main><h1>Page ${f}.${p}</h1><p>${PARAS.join('</p><p>')}</p></main><footer>(c) 2024</footer></body></html>`;
          return warcRecord('response', `https://example.org/${f}/${p}.html`, httpBlock(200, { 'Content-Type': 'text/html; charset=utf-8' }, html), { id: `00000000-0000-4000-8000-${String(f * 10 + p).padStart(12, '0')}` });
        });
        const file = join(root, dir, `crawl/${f % 2 ? 'a' : 'b'}/CC-MAIN-2024-10-${f}.warc.gz`);
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, perRecordGzip(pages));
      }
    }
    const warc = ['warc', '--documents', 'crawl/**/*.warc.gz', '--destination', 'dataset'];
    expect(assay(join(root, 'local'), ...warc, '-q').code).toBe(0);
    const s = assay(join(root, 'slurm'), ...warc, '--ignore-existing', '--executor', 'slurm', '--tasks', '4', '--wait');
    expect(s.code, `${s.out}\n${s.err}`).toBe(0);
    expect(s.out).toContain('tasks 4: 4 done; final step done');
    // --ignore-existing made the tasks redo their files, not the final step (every file is done by then).
    expect(readFileSync(join(root, 'slurm/.assay-slurm/warc/logs/final.log'), 'utf8').match(/already done: marker/g)).toHaveLength(5);
    // Apart from `added` (when each run wrote them), the same documents in the same files, and the run manifest.
    const docs = (dir: string): Record<string, unknown[]> => Object.fromEntries(Object.entries(tree(join(root, dir, 'dataset/documents'))).map(([n, t]) => [n, sortedRows(t).map((d) => ({ ...d, added: undefined }))]));
    expect(Object.keys(docs('slurm')).sort()).toEqual(['a/CC-MAIN-2024-10-1.jsonl.gz', 'a/CC-MAIN-2024-10-3.jsonl.gz', 'b/CC-MAIN-2024-10-0.jsonl.gz', 'b/CC-MAIN-2024-10-2.jsonl.gz', 'b/CC-MAIN-2024-10-4.jsonl.gz']);
    expect(docs('slurm')).toEqual(docs('local'));
    const manifest = JSON.parse(readFileSync(join(root, 'slurm/dataset/documents/.assay/manifest.json'), 'utf8')) as { stage: string; inputs: unknown[] };
    expect([manifest.stage, manifest.inputs.length]).toEqual(['warc', 5]);

    // import: Parquet shards, 2 tasks; the final step writes the manifest over every file.
    for (const dir of ['local', 'slurm']) for (let f = 0; f < 3; f++) writeFinewebParquet(join(root, dir, `raw/fw/00${f}.parquet`), finewebRows(7).map((r) => ({ ...r, id: `${f}-${r.id}` })), 3);
    const imp = ['import', 'raw/fw/*.parquet', '--dest', 'fineweb'];
    expect(assay(join(root, 'local'), ...imp, '-q').code).toBe(0);
    const si = assay(join(root, 'slurm'), ...imp, '--executor', 'slurm', '--tasks', '2', '--wait');
    expect(si.code, `${si.out}\n${si.err}`).toBe(0);
    expect(si.out).toContain('tasks 2: 2 done; final step done');
    const imported = (dir: string): Record<string, unknown[]> => Object.fromEntries(Object.entries(tree(join(root, dir, 'fineweb/documents'))).map(([n, t]) => [n, sortedRows(t).map((d) => ({ ...d, added: undefined }))]));
    expect(Object.keys(imported('slurm')).sort()).toEqual(['000.jsonl.gz', '001.jsonl.gz', '002.jsonl.gz']);
    expect(imported('slurm')).toEqual(imported('local'));
    const im = JSON.parse(readFileSync(join(root, 'slurm/fineweb/documents/.assay/manifest.json'), 'utf8')) as { stage: string; inputs: unknown[]; totals: { docs: number } };
    expect([im.stage, im.inputs.length, im.totals.docs]).toEqual(['import', 3, 21]);
  }, 300_000);

  it('decon (3 tasks): the eval index built once while planning; the attributes and items file of the local run', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `decon-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const [local, slurm] = [twin(root, 'local'), twin(root, 'slurm')];
    for (const dir of [local, slurm]) writeJsonl(join(dir, 'evals/e.jsonl'), [{ q: PARAS[1] }, { q: 'Nothing in this corpus reads like the words of this item.' }]);
    const decon = ['decon', '--name', 'ev', '--documents', 'documents/*.jsonl.gz', '--eval', 'evals/e.jsonl', '--eval-fields', 'q', '--ngram', '4'];
    const l = assay(local, ...decon, '-q');
    expect(l.code, l.err).toBe(0);
    // --ignore-existing: the tasks tag their files; the final step (the whole command again) skips them all.
    const s = assay(slurm, ...decon, '--ignore-existing', '--executor', 'slurm', '--tasks', '3', '--wait');
    expect(s.code, `${s.out}\n${s.err}`).toBe(0);
    expect(s.out).toMatch(/index \S*ev\.decon\.idx: built in [\d.]+ s/);
    expect(s.out).toContain('tasks 3: 3 done; final step done');
    const attrs = tree(join(slurm, 'attributes/ev'));
    expect(Object.keys(attrs).sort()).toEqual([0, 1, 2, 3, 4, 5].map((f) => `part-${f}.jsonl.gz`));
    expect(attrs).toEqual(tree(join(local, 'attributes/ev')));
    expect(Object.values(attrs).join('')).toMatch(/"ev__decon__overlap":\[\[/);
    const items = 'attributes/ev/.assay/decon-items.json';
    expect(readFileSync(join(slurm, items), 'utf8')).toBe(readFileSync(join(local, items), 'utf8'));
    const logs = join(slurm, '.assay-slurm/decon/logs');
    for (let t = 0; t < 3; t++) expect(readFileSync(join(logs, `task-${t}.log`), 'utf8')).toContain('(reused: it matches the eval sets and n)');
    expect(readFileSync(join(logs, 'final.log'), 'utf8')).toMatch(/tagged 0 file\(s\).*; skipped 6 already tagged/);
    expect(taskArgvs(join(slurm, '.assay-slurm/decon')).every((a) => a.includes('--no-manifest'))).toBe(true);
    expect(outputsIn(join(slurm, 'attributes/ev/.assay/manifest.json'))).toBe(6);
    // The report reads the same attributes; it runs here, not on the cluster.
    expect(assay(slurm, 'decon', 'report', '--name', 'ev', '--documents', 'documents/*.jsonl.gz', '--executor', 'slurm').err).toContain('decon report runs locally only: drop --executor');
  });

  it('resume: a scancelled task and a SIGKILLed one are the only ones resubmitted; the outputs equal a clean run', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `resume-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const [clean, run] = [twin(root, 'clean'), twin(root, 'run')];
    // Task 2 (part-2 alone: files go round-robin) gets a big file, so it is still tagging when it is killed.
    const big = Array.from({ length: 6000 }, (_, d) => ({ id: `big-${d}`, text: `${PARAS.join('\n\n')} ${d}\n`.repeat(12) }));
    for (const dir of [clean, run]) writeJsonl(join(dir, 'documents/part-2.jsonl.gz'), big);
    const tag = ['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1', 'gopher_v1'];
    expect(assay(clean, ...tag, '-q').code).toBe(0);
    // Task 1 waits before its work and is cancelled with scancel; task 2's process (the shell that execs assay,
    // so the same pid) is killed with SIGKILL while assay is tagging.
    const hold = `echo $$ > pid-$SLURM_ARRAY_TASK_ID; if [ "$SLURM_ARRAY_TASK_ID" = 1 ]; then sleep 120; fi`;
    const first = assay(run, ...tag, '--executor', 'slurm', '--tasks', '4', '--env-command', hold);
    expect(first.code, first.err).toBe(0);
    const jobId = /array job (\d+)/.exec(first.out)?.[1] as string;
    const status = (): { code: number; out: string } => assay(run, 'jobs', 'status', '.assay-slurm/tag');
    const until = (ok: () => boolean, what: string): void => {
      for (let i = 0; i < 1200 && !ok(); i++) execFileSync('sleep', ['0.1']);
      if (!ok()) throw new Error(`timed out waiting for ${what}`);
    };
    const log2 = join(run, '.assay-slurm/tag/logs/task-2.log');
    until(() => existsSync(log2) && readFileSync(log2, 'utf8').includes('assay task 2 of 4') && existsSync(join(run, 'pid-2')), 'task 2 to start tagging');
    execFileSync('kill', ['-9', readFileSync(join(run, 'pid-2'), 'utf8').trim()]);
    expect(existsSync(join(run, '.assay-slurm/tag/completions/task-2.json'))).toBe(false);
    until(() => existsSync(join(run, 'pid-1')), 'task 1 to start');
    execFileSync('scancel', [`${jobId}_1`], { env: { ...process.env, SLURM_CONF: conf! } });
    until(() => !/running|pending/.test(status().out), 'the run to end');
    const s = status();
    expect(s.code).toBe(1);
    expect(s.out).toContain('tasks 4: 2 done, 1 failed, 1 cancelled; final step not run (it needs every task)');
    expect(s.out).toContain('task 1 cancelled');
    expect(s.out).toMatch(/task 2 failed; inputs: .*part-2\.jsonl\.gz/);
    const again = assay(run, ...tag, '--executor', 'slurm', '--tasks', '4', '--wait');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/submitted 2 of 4 task\(s\) as array job \d+ \(--array=1-2\).*2 already complete/);
    const [a, b] = [tree(join(clean, 'attributes')), tree(join(run, 'attributes'))];
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    for (const n of Object.keys(a)) expect(sortedRows(b[n] ?? ''), n).toEqual(sortedRows(a[n] ?? ''));
    // Another task count on this partly finished run is refused with the reason.
    const other = assay(run, ...tag, '--executor', 'slurm', '--tasks', '3');
    expect(other.code).toBe(2);
    expect(other.err).toContain("4 of this run's 4 tasks have finished; 3 tasks would assign the inputs differently");
  }, 300_000);

  it('`assay jobs cancel`: tasks it stopped read cancelled, one that had already failed stays failed', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `cancel-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const run = twin(root, 'run');
    // Task 0 fails at once; the others wait, so the cancel finds them queued or running.
    const hold = 'if [ "$SLURM_ARRAY_TASK_ID" = 0 ]; then echo "env broke" >&2; exit 3; fi; sleep 120';
    const first = assay(run, 'tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1', '--executor', 'slurm', '--tasks', '3', '--env-command', hold);
    expect(first.code, first.err).toBe(0);
    const status = (): { code: number; out: string } => assay(run, 'jobs', 'status', '.assay-slurm/tag');
    const until = (ok: () => boolean, what: string): void => {
      for (let i = 0; i < 600 && !ok(); i++) execFileSync('sleep', ['0.1']);
      if (!ok()) throw new Error(`timed out waiting for ${what}`);
    };
    until(() => status().out.includes('task 0 failed'), 'task 0 to fail');
    const c = assay(run, 'jobs', 'cancel', '.assay-slurm/tag');
    expect(c.code, c.err).toBe(0);
    expect(c.out).toMatch(/^scancel \d+ \d+: finished tasks keep their outputs/);
    until(() => !/running|pending/.test(status().out), 'the run to end');
    const s = status();
    expect(s.code).toBe(1);
    expect(s.out).toContain('tasks 3: 1 failed, 2 cancelled; final step not run (it needs every task)');
    expect(s.out).toContain('task 0 failed');
    expect(s.out).toContain('| env broke');
    expect(s.out).toContain('task 1 cancelled');
    expect(s.out).toContain('task 2 cancelled');
  }, 120_000);

  it('a failing task (bad input) fails the run with its log tail and input named; after the fix only it reruns', (ctx) => {
    if (skip) return ctx.skip(skip);
    const root = join(BASE, 'work', `fail-${process.pid}`);
    rmSync(root, { recursive: true, force: true });
    const [clean, run] = [twin(root, 'clean'), twin(root, 'run')];
    const tag = ['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1'];
    expect(assay(clean, ...tag, '-q').code).toBe(0);
    const good = readFileSync(join(run, 'documents/part-3.jsonl.gz'));
    writeFileSync(join(run, 'documents/part-3.jsonl.gz'), gzipSync('{"id": "x", "text": "fine"}\nthis is not JSON\n'));
    const r = assaySource(run, ...tag, '--executor', 'slurm', '--tasks', '4', '--wait');
    expect(readFileSync(join(run, '.assay-slurm/tag/scripts/array-0.sbatch'), 'utf8')).toMatch(/ --import \/\S+\/loader\.mjs \S+\/bin\.ts jobs task /);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/task 3 failed; inputs: \S*part-3\.jsonl\.gz/);
    expect(r.out).toMatch(/\| assay: error: \S*part-3\.jsonl\.gz:2/);
    // The other tasks' outputs stay and are reused: after the fix only task 3 runs.
    expect(readdirSync(join(run, 'attributes/char_length_v1')).filter((n) => n.endsWith('.gz')).sort()).toEqual(['part-0.jsonl.gz', 'part-1.jsonl.gz', 'part-2.jsonl.gz', 'part-4.jsonl.gz', 'part-5.jsonl.gz']);
    writeFileSync(join(run, 'documents/part-3.jsonl.gz'), good);
    const again = assaySource(run, ...tag, '--executor', 'slurm', '--tasks', '4', '--wait');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/submitted 1 of 4 task\(s\) as array job \d+ \(--array=3\)/);
    const [a, b] = [tree(join(clean, 'attributes')), tree(join(run, 'attributes'))];
    for (const n of Object.keys(a)) expect(sortedRows(b[n] ?? ''), n).toEqual(sortedRows(a[n] ?? ''));
  }, 300_000);
});
