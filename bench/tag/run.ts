// bench/tag: MB/s per core of gopher_v1 + c4_v2 + fineweb_quality + pii_regex_with_counts_fast_v2 in one pass, vs the I/O floor.
import { DATA_DIR, numberArg, scaled } from '../args.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTag } from '../../workers/engine/tag/runtime.js';
import { ensureCorpus } from '../mix/corpus.js';
import { floorSerial } from '../mix/floor.js';

const ROOT = join(DATA_DIR, 'mix');
const OUT = join(DATA_DIR, 'tag');
const CORPUS_MB = scaled(200, 4);
const arg = numberArg;
const FILES_USED = arg('files-used', 2);
export const BENCH_TAGGERS = ['gopher_v1', 'c4_v2', 'fineweb_quality', 'pii_regex_with_counts_fast_v2'];

async function measure(kind: string): Promise<{ sec: number; bytes: number }> {
  const info = ensureCorpus(ROOT, CORPUS_MB, 8);
  const files = info.files.slice(0, FILES_USED);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const t = performance.now();
  if (kind === 'floor') {
    const bytes = await floorSerial(files, OUT);
    return { sec: (performance.now() - t) / 1000, bytes };
  }
  const s = await runTag({ documents: files, taggers: kind === 'tag' ? BENCH_TAGGERS : [kind], experiment: 'bench', ignoreExisting: true, processes: 1 });
  return { sec: (performance.now() - t) / 1000, bytes: s.bytes };
}

function inFreshProcess(kind: string): { sec: number; bytes: number } {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, '--measure', kind, '--files-used', String(FILES_USED)];
  const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const [cmd, ...args] = pinned ? ['taskset', '-c', '0', ...node] : node;
  const r = spawnSync(cmd as string, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${kind} failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { sec: number; bytes: number };
}

const mbps = (r: { sec: number; bytes: number }): number => r.bytes / 1e6 / r.sec;
const m = process.argv.indexOf('--measure');
if (m >= 0) {
  process.stdout.write(JSON.stringify(await measure(process.argv[m + 1] as string)) + '\n');
} else {
  ensureCorpus(ROOT, CORPUS_MB, 8);
  process.stderr.write(`tagging ${FILES_USED} of the 8 bench/mix corpus files, one pinned core; ${cpus().length} cores\n`);
  const floor = inFreshProcess('floor');
  const tag = inFreshProcess('tag');
  const lines = [
    `bench/tag — ${(tag.bytes / 1e6).toFixed(0)} MB uncompressed input, one core`,
    `  I/O floor (gunzip → parse → stringify → gzip-6)               ${mbps(floor).toFixed(1).padStart(6)} MB/s`,
    `  ${BENCH_TAGGERS.join(' + ')}   ${mbps(tag).toFixed(1).padStart(6)} MB/s`,
    `  tag ÷ floor                                                   ${(mbps(tag) / mbps(floor)).toFixed(2)}`,
  ];
  if (process.argv.includes('--each')) {
    for (const t of BENCH_TAGGERS) lines.push(`  ${t.padEnd(60)} ${mbps(inFreshProcess(t)).toFixed(1).padStart(6)} MB/s alone`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}
