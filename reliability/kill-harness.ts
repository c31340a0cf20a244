// Kill-and-resume harness: a dataset, the built CLI run to the end or SIGKILLed mid-run, and the workspace's outputs as comparable snapshots.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SentenceSource, prng } from '../workers/engine/demo/text.js';
import { REPO_ROOT, writeJsonl } from '../workers/engine/testing.js';

/**
 * The bundled CLI, copied beside the real bundle (so its packages resolve the same way) once per test
 * process: other test files rebuild dist/engine while this one kills and reruns for a minute.
 */
export function privateCli(): { cli: string; remove: () => void } {
  const dir = join(REPO_ROOT, 'dist', `kill-test-${process.pid}`, 'engine');
  for (let attempt = 0; ; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      cpSync(join(REPO_ROOT, 'dist/engine'), dir, { recursive: true });
      // The pools fork cached-child.js with the workers' .cjs bundles (code-cache/), when both are there.
      const entries = ['cli.js', 'tag-worker.js', 'mix-worker.js', 'tokens-worker.js', 'index-worker.js', 'jq-worker.js', 'cached-child.js', 'tag-worker.cjs', 'mix-worker.cjs', 'tokens-worker.cjs', 'index-worker.cjs'];
      for (const f of entries) statSync(join(dir, f));
      checkChunks(dir, entries);
      break;
    } catch (e) {
      // dist/engine was being rebuilt: wait for the build to finish.
      if (attempt >= 60) throw e;
      spawnSync('sleep', ['1']);
    }
  }
  return { cli: join(dir, 'cli.js'), remove: () => rmSync(join(dir, '..'), { recursive: true, force: true }) };
}

/** Throws (ENOENT) unless every chunk the entries import, transitively, was copied: a build running meanwhile can leave one out. */
function checkChunks(dir: string, entries: readonly string[]): void {
  const seen = new Set<string>();
  const todo = [...entries];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/["']\.\/(chunk-[\w-]+\.js)["']/g)) todo.push(m[1] as string);
  }
}

/**
 * `files` documents files of `docs` documents of real English text, a tenth of them exact copies of
 * earlier ones and a tenth near copies (so dedupe and MinHash find something), plus the verbs' configs.
 */
export function makeDataset(dir: string, files: number, docs: number): void {
  const rand = prng(42);
  const text = new SentenceSource(rand);
  const seen: string[] = [];
  for (let f = 0; f < files; f++) {
    const rows = Array.from({ length: docs }, (_, i) => {
      const r = rand();
      const earlier = seen[Math.floor(rand() * seen.length)];
      const body =
        earlier !== undefined && r < 0.1 ? earlier : earlier !== undefined && r < 0.2 ? `${earlier} ${text.paragraph(1, 1)}` : Array.from({ length: 3 }, () => text.paragraph(2, 6)).join('\n');
      seen.push(body);
      return { id: `f${f}-${i}`, text: body, source: f % 2 ? 'forum' : 'web', metadata: { url: `https://example.com/${f}/${i}` } };
    });
    writeJsonl(join(dir, 'documents', `part-${String(f).padStart(2, '0')}.jsonl.gz`), rows);
  }
  writeFileSync(
    join(dir, 'dedupe.yaml'),
    'documents: [documents/*.jsonl.gz]\ndedupe:\n  name: dd\n  paragraphs: {attribute_name: bff_duplicate_paragraph_spans}\nbloom_filter: {file: bloom/filter.bin, read_only: false, estimated_doc_count: 200000, desired_false_positive_rate: 0.0001}\n',
  );
  writeFileSync(join(dir, 'minhash.yaml'), 'documents: [documents/*.jsonl.gz]\nname: mh\n');
  writeFileSync(
    join(dir, 'recipe.yaml'),
    'streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    attributes: [k]\n    output: {path: output/s, max_size_in_bytes: 400000}\n    filter:\n      exclude:\n        - "$.attributes[?(@.k__char_length_v1__length && @.k__char_length_v1__length[0] && @.k__char_length_v1__length[0][2] < 700)]"\nshuffle: true\nprocesses: 1\n',
  );
}

export interface Run {
  /** ms after the start at which the first new path appeared under the working folder (with `watch`). */
  firstOutputMs?: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  stderr: string;
  /** Set when the run was killed: relative paths of partial files (`*.tmp`, work folders) present at that moment. */
  partialAtKill?: string[];
}

export interface RunOptions {
  /** SIGKILL the run this many ms after it created its first new file or folder (unless it ended first). */
  killAfterFirstOutputMs?: number;
  /** SIGKILL the run as soon as a partial file (`isPartial`) is seen: a kill certain to land mid-write, whatever the machine's load. */
  killAtFirstPartial?: boolean;
}

/**
 * Runs `cli` in its own process group, watching the working folder for the first path the run creates
 * (startup time varies with the machine's load; the work that matters starts there). A kill is SIGKILL
 * to the whole group: the CLI and any worker it forked, as a crash or `kill -9` of the job would be.
 */
export function runCli(cli: string, args: readonly string[], cwd: string, opts: RunOptions = {}): Promise<Run> {
  const started = performance.now();
  const before = new Set(listAll(cwd));
  const child = spawn(process.execPath, [cli, ...args], { cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let firstOutputMs: number | undefined;
  let partialAtKill: string[] | undefined;
  let timer: NodeJS.Timeout | undefined;
  const kill = (): void => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    partialAtKill = listAll(cwd).filter(isPartial);
    process.kill(-(child.pid as number), 'SIGKILL');
  };
  const poll = setInterval(() => {
    if (opts.killAtFirstPartial && partialAtKill === undefined && listAll(cwd).some((p) => isPartial(p) && !before.has(p))) kill();
    if (firstOutputMs !== undefined) return;
    // Locks (and the folders made to hold them) appear before any work: the first output is the first other path.
    const fresh = listAll(cwd).filter((p) => !before.has(p));
    const locks = fresh.filter((p) => p.endsWith('.lock'));
    if (!fresh.some((p) => !p.endsWith('.lock') && !locks.some((l) => l.startsWith(`${p}/`)))) return;
    firstOutputMs = performance.now() - started;
    if (opts.killAfterFirstOutputMs !== undefined) timer = setTimeout(kill, opts.killAfterFirstOutputMs);
  }, 10);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, signal, ms: performance.now() - started, stderr, ...(partialAtKill && { partialAtKill }), ...(firstOutputMs !== undefined && { firstOutputMs }) });
    });
  });
}

/** Relative paths under `dir`, files and folders, sorted (retried when a run renames something mid-listing). */
export function listAll(dir: string): string[] {
  for (let attempt = 0; ; attempt++) {
    try {
      return (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split('\\').join('/')).sort();
    } catch (e) {
      if (attempt >= 20 || (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/**
 * What a run leaves when it stops half-way: temporaries, work folders, SQLite journals, the tokens publishing record,
 * and a mix run's ledger parts (written without a journal, merged and removed at the end; a rerun starts them anew).
 */
export const isPartial = (rel: string): boolean =>
  /(^|\/)(\.minhash-work-[^/]*|\.minhash-resume|[^/]*\.tmp|\.assay\/ledger-parts)(\/|$)/.test(rel) || /-(wal|shm|journal)$/.test(rel) || /(^|\/)\.assay\/tokens-publishing\.json$/.test(rel);

/** Removes everything under `dir` but `keep` (top-level names): back to the inputs before the next run. */
export function resetTo(dir: string, keep: readonly string[]): void {
  for (const name of readdirSync(dir)) if (!keep.includes(name)) rmSync(join(dir, name), { recursive: true, force: true });
}

/**
 * The outputs a run left: every file not among the inputs, as content comparable across runs — gzip
 * decoded (so equal data compares equal even where compressors could differ), with `normalize`
 * applied per file (for fields that legitimately differ, like timings).
 */
export function outputs(dir: string, inputs: readonly string[], normalize: (rel: string, data: Buffer) => string | Buffer = (_r, d) => d): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of listAll(dir)) {
    if (inputs.some((i) => rel === i || rel.startsWith(`${i}/`))) continue;
    const abs = join(dir, rel);
    if (statSync(abs).isDirectory()) {
      out.set(`${rel}/`, '(folder)');
      continue;
    }
    // A partial file is only there or not: its bytes are whatever the kill left.
    if (isPartial(rel)) {
      out.set(rel, '(partial)');
      continue;
    }
    let data = readFileSync(abs);
    if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
    const v = normalize(rel, data);
    out.set(rel, typeof v === 'string' ? v : v.toString('base64'));
  }
  return out;
}

