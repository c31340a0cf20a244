// bench/tag: MB/s per core of tag passes — Dolma's taggers on the bench/mix corpus and on real prose, FineWeb's preset on real prose; --pool: pools with V8's background threads on and off.
import { DATA_DIR, numberArg, runMeasured, scaled } from '../args.js';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tagSettingsFromText } from '../../workers/engine/tag/config-file.js';
import { runTag, type TaggerRequest } from '../../workers/engine/tag/runtime.js';
import { ensureCorpus } from '../mix/corpus.js';
import { floorSerial } from '../mix/floor.js';
import { nativeLines } from './native.js';
import { poolLines } from './pool.js';
import { ensureProseCorpus } from './prose.js';

const ROOT = join(DATA_DIR, 'mix');
/** Each measuring process writes its own folder, so runs started side by side never clear each other's output. */
const OUT = join(DATA_DIR, `tag-${process.pid}`);
const PROSE = join(DATA_DIR, 'tag-prose');
const CORPUS_MB = scaled(200, 4);
const arg = numberArg;
const FILES_USED = arg('files-used', 2);
/** Each prose measurement runs this many times in fresh processes; the best run counts (others' load only slows runs down). */
const RUNS = arg('runs', scaled(3, 1));
export const BENCH_TAGGERS = ['gopher_v1', 'c4_v2', 'fineweb_quality', 'pii_regex_with_counts_fast_v2'];
/** The pass the issue compares with Dolma's own Python taggers. */
export const DOLMA_PASS = ['gopher_v1', 'c4_v2', 'pii_regex_with_counts_fast_v2'];

/** FineWeb's preset exactly as configs/fineweb.yaml runs it (names, options). */
function finewebPreset(): TaggerRequest[] {
  const path = fileURLToPath(new URL('../../configs/fineweb.yaml', import.meta.url));
  return tagSettingsFromText(readFileSync(path, 'utf8'), path).requests ?? [];
}

/**
 * What a measurement tags: `tag` (bench/mix, BENCH_TAGGERS), `floor`, `prose-fineweb[:i]` (preset or its i-th tagger
 * alone), `prose-dolma[:i]`. Prefixes: `sustained:` first tags the prose corpus's even-numbered documents unmeasured
 * and then measures the odd-numbered ones (other text, the same process): the rate a long run keeps up once V8 has
 * compiled the taggers and their caches have filled; `files8:` measures the corpus dealt into 8 files (taggers are
 * created for every file). Suffix `@gz6`: the attribute files at gzip level 6, Dolma's Rust writers' default (Assay's
 * is 4).
 */
function plan(kind: string): { files: string[]; warmUp: string[]; taggers: (string | TaggerRequest)[] | null } {
  const prefixed = /^(sustained|files8):(.*)$/.exec(kind);
  const prefix = prefixed?.[1] ?? '';
  const [what, index] = (prefixed?.[2] ?? kind).split(':');
  if (what === 'floor' || what === 'tag') return { files: ensureCorpus(ROOT, CORPUS_MB, 8).files.slice(0, FILES_USED), warmUp: [], taggers: what === 'tag' ? BENCH_TAGGERS : null };
  // Files in this process's own folder: attributes land beside them, so measurements run side by side never share a file.
  const corpus = ensureProseCorpus(PROSE).file;
  const all: (string | TaggerRequest)[] | null = what === 'prose-fineweb' ? finewebPreset() : what === 'prose-dolma' ? DOLMA_PASS : what === 'prose-floor' ? null : [what as string];
  const taggers = all === null || index === undefined ? all : [all[Number(index)] as string | TaggerRequest];
  if (prefix === '') {
    const link = join(OUT, 'documents', 'prose.jsonl.gz');
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(corpus, link);
    return { files: [link], warmUp: [], taggers };
  }
  const lines = gunzipSync(readFileSync(corpus)).toString('utf8').split('\n').filter((l) => l !== '');
  /** The documents whose number is `part` modulo `parts`, as documents/<name>.jsonl.gz in a folder of their own. */
  const deal = (name: string, part: number, parts: number): string => {
    const file = join(OUT, name, 'documents', `${name}.jsonl.gz`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, gzipSync(lines.filter((_, i) => i % parts === part).join('\n') + '\n', { level: 1 }));
    return file;
  };
  if (prefix === 'files8') return { files: Array.from({ length: 8 }, (_, k) => deal(`part-${k}`, k, 8)), warmUp: [], taggers };
  return { files: [deal('measured', 1, 2)], warmUp: [deal('warm-up', 0, 2)], taggers };
}

export interface Measured {
  /** Wall seconds of the run (start-up and module loading excluded). */
  wall: number;
  /** CPU seconds of the whole process over the run (user + system, every thread: zlib's too). */
  sec: number;
  bytes: number;
}

async function measure(spec: string): Promise<Measured> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const [kind, level] = spec.endsWith('@gz6') ? [spec.slice(0, -4), 6] : [spec, undefined];
  const { files, warmUp, taggers } = plan(kind);
  const run = { experiment: 'bench', ignoreExisting: true, processes: 1, compressionLevel: level };
  if (taggers !== null && warmUp.length > 0) await runTag({ documents: warmUp, taggers, ...run });
  const t = performance.now();
  const cpu = process.cpuUsage();
  const done = (bytes: number): Measured => {
    const c = process.cpuUsage(cpu);
    return { wall: (performance.now() - t) / 1000, sec: (c.user + c.system) / 1e6, bytes };
  };
  try {
    if (taggers === null) return done(await floorSerial(files, OUT));
    const s = await runTag({ documents: files, taggers, ...run });
    return done(s.bytes);
  } finally {
    rmSync(OUT, { recursive: true, force: true });
  }
}

/** `native`: false runs it with `ASSAY_NATIVE=0` (the JavaScript fastText step even where the C addon is built), true with the addon. */
function inFreshProcess(kind: string, native?: boolean): Measured {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, '--measure', kind, '--files-used', String(FILES_USED)];
  return runMeasured<Measured>(node, kind, native === undefined ? {} : { env: { ...process.env, ASSAY_NATIVE: native ? '1' : '0' } });
}

/** The run with the least CPU time of RUNS fresh-process runs. */
function best(kind: string): Measured {
  let b = inFreshProcess(kind);
  for (let i = 1; i < RUNS; i++) {
    const r = inFreshProcess(kind);
    if (r.sec < b.sec) b = r;
  }
  return b;
}

/** MB of input per CPU second: what one core sustains, whatever else the machine is running. */
const mbps = (r: Measured): number => r.bytes / 1e6 / r.sec;
const fmt = (r: Measured): string => `${mbps(r).toFixed(2).padStart(7)} MB/s (wall ${(r.bytes / 1e6 / r.wall).toFixed(2)})`;
const nameOf = (t: string | TaggerRequest): string => (typeof t === 'string' ? t : t.name);

function synthetic(): string[] {
  const floor = inFreshProcess('floor');
  const tag = inFreshProcess('tag');
  const lines = [
    `bench/tag — bench/mix corpus, ${(tag.bytes / 1e6).toFixed(0)} MB uncompressed input, one core`,
    `  I/O floor (gunzip → parse → stringify → gzip-6)               ${mbps(floor).toFixed(1).padStart(6)} MB/s`,
    `  ${BENCH_TAGGERS.join(' + ')}   ${mbps(tag).toFixed(1).padStart(6)} MB/s`,
    `  tag ÷ floor                                                   ${(mbps(tag) / mbps(floor)).toFixed(2)}`,
  ];
  if (process.argv.includes('--each')) {
    for (const t of BENCH_TAGGERS) lines.push(`  ${t.padEnd(60)} ${mbps(inFreshProcess(t)).toFixed(1).padStart(6)} MB/s alone`);
  }
  return lines;
}

/** Each tagger's line, then the pass's CPU time over its slowest tagger's alone. */
function againstSlowest(pass: Measured, alone: { name: string; r: Measured }[]): string[] {
  const slowest = alone.reduce((a, b) => (b.r.sec > a.r.sec ? b : a));
  return [
    ...alone.map(({ name, r }) => `    ${name.padEnd(45)}${fmt(r)} alone`),
    `  one pass ÷ slowest alone (${slowest.name})${' '.repeat(Math.max(1, 22 - slowest.name.length))}${(pass.sec / slowest.r.sec).toFixed(2).padStart(7)}        (target ≤ 1.5)`,
  ];
}

function prose(): string[] {
  const info = ensureProseCorpus(PROSE);
  const mix = Object.entries(info.sources).map(([s, b]) => `${s} ${(b / 1e6).toFixed(2)}`).join(', ');
  const lines = [
    `bench/tag — real prose, ${info.docs} documents, ${(info.bytes / 1e6).toFixed(2)} MB of text (${mix} MB), one pinned core, best of ${RUNS}`,
    '  MB/s per core = MB of input lines / CPU seconds of the run (start-up excluded); wall-clock MB/s in brackets',
  ];
  lines.push(`  I/O floor                                        ${fmt(best('prose-floor'))}`);
  const preset = finewebPreset();
  const one = best('prose-fineweb');
  lines.push(`  FineWeb preset (configs/fineweb.yaml), one pass  ${fmt(one)}   (target ≥ 5)`);
  lines.push(`  the same, the corpus dealt into 8 files           ${fmt(best('files8:prose-fineweb'))}`);
  lines.push(...againstSlowest(one, preset.map((t, i) => ({ name: nameOf(t), r: best(`prose-fineweb:${i}`) }))));
  lines.push(`  the same, attribute files at gzip 6 (Dolma's)   ${fmt(best('prose-fineweb@gz6'))}`);
  lines.push(`  ${DOLMA_PASS.join(' + ')}, one pass ${fmt(best('prose-dolma'))} (target ≥ 12)`);
  lines.push(`  the same, attribute files at gzip 6 (Dolma's)   ${fmt(best('prose-dolma@gz6'))}`);
  lines.push('  sustained: the odd-numbered documents, measured after the even-numbered ones in the same process (other text)');
  const sustained = best('sustained:prose-fineweb');
  lines.push(`  FineWeb preset, one pass, sustained              ${fmt(sustained)}`);
  lines.push(...againstSlowest(sustained, preset.map((t, i) => ({ name: nameOf(t), r: best(`sustained:prose-fineweb:${i}`) }))));
  lines.push(`  the same, attribute files at gzip 6 (Dolma's)   ${fmt(best('sustained:prose-fineweb@gz6'))}`);
  lines.push(`  ${DOLMA_PASS.join(' + ')}, sustained ${fmt(best('sustained:prose-dolma'))}`);
  lines.push(`  the same, attribute files at gzip 6 (Dolma's)   ${fmt(best('sustained:prose-dolma@gz6'))}`);
  return lines;
}

const m = process.argv.indexOf('--measure');
if (m >= 0) {
  process.stdout.write(JSON.stringify(await measure(process.argv[m + 1] as string)) + '\n');
} else if (process.argv.includes('--native')) {
  process.stdout.write(nativeLines(inFreshProcess, RUNS, finewebPreset().map(nameOf)).join('\n') + '\n');
} else if (process.argv.includes('--pool')) {
  process.stdout.write(poolLines().join('\n') + '\n');
} else {
  ensureCorpus(ROOT, CORPUS_MB, 8);
  process.stderr.write(`tagging ${FILES_USED} of the 8 bench/mix corpus files, one pinned core; ${cpus().length} cores\n`);
  const lines = process.argv.includes('--prose-only') ? [] : synthetic();
  if (!process.argv.includes('--synthetic-only')) lines.push(...prose());
  process.stdout.write(lines.join('\n') + '\n');
}
