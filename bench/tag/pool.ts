// bench/tag --pool: `assay tag --processes N` on N cores with V8's background threads on and off (what the pool picks by default).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { poolV8Flags } from '../../workers/engine/jobs/v8-flags.js';
import { DATA_DIR, numberArg, scaled } from '../args.js';
import { ensureProseCorpus, type ProseCorpus } from './prose.js';

const CLI = fileURLToPath(new URL('../../bin/assay.js', import.meta.url));
const PROSE = join(DATA_DIR, 'tag-prose');
const PROCESSES = numberArg('processes', availableParallelism());
/** Two files per process: each worker starts once and tags a second file warm, as in a real run. */
const COPIES = 2 * PROCESSES;
const RUNS = numberArg('pool-runs', scaled(5, 1));
const PASSES: { name: string; args: string[] }[] = [
  { name: 'gopher_v1 + c4_v2 + pii_regex_with_counts_fast_v2', args: ['--documents', 'documents/*.jsonl.gz', '--taggers', 'gopher_v1', 'c4_v2', 'pii_regex_with_counts_fast_v2'] },
  { name: 'FineWeb preset (configs/fineweb.yaml)', args: ['-c', 'fineweb.yaml'] },
];

interface Run {
  wall: number;
  /** User + system seconds of the whole process tree (bash's `times` for its reaped children). */
  cpu: number;
}

/** One `assay tag` in a fresh process tree; `background` sets ASSAY_V8_BACKGROUND (undefined: the pool decides). */
function once(dir: string, args: string[], background: string | undefined): Run {
  rmSync(join(dir, 'attributes'), { recursive: true, force: true });
  const env = { ...process.env };
  delete env.ASSAY_V8_BACKGROUND;
  if (background !== undefined) env.ASSAY_V8_BACKGROUND = background;
  const command = [process.execPath, CLI, 'tag', ...args, '--processes', String(PROCESSES)];
  const t = performance.now();
  // The command comes in as bash's positional arguments (no quoting); $0 is where its stderr goes.
  const r = spawnSync('bash', ['-c', '"$@" >/dev/null 2>"$0" || exit 1; times', join(dir, 'stderr.txt'), ...command], { cwd: dir, env, encoding: 'utf8' });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`assay tag failed (${r.status}); its stderr is in ${join(dir, 'stderr.txt')}`);
  // `times`: the shell's own user/system line, then its children's.
  const [user, system] = (r.stdout.trim().split('\n')[1] ?? '').split(/\s+/).map((s) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(s);
    return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  });
  return { wall, cpu: (user ?? NaN) + (system ?? NaN) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

/** A folder with COPIES links to the prose file and the FineWeb preset pointed at them. */
function workspace(info: ProseCorpus): string {
  const dir = join(DATA_DIR, `tag-pool-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'documents'), { recursive: true });
  for (let i = 0; i < COPIES; i++) symlinkSync(info.file, join(dir, 'documents', `prose-${i}.jsonl.gz`));
  // configs/fineweb.yaml as shipped, its documents glob pointed at these links.
  const preset = readFileSync(fileURLToPath(new URL('../../configs/fineweb.yaml', import.meta.url)), 'utf8');
  if (!preset.includes('dataset/documents/*.jsonl.gz')) throw new Error('configs/fineweb.yaml no longer globs dataset/documents/*.jsonl.gz');
  writeFileSync(join(dir, 'fineweb.yaml'), preset.replaceAll('dataset/documents/*.jsonl.gz', 'documents/*.jsonl.gz'));
  return dir;
}

export function poolLines(): string[] {
  const info = ensureProseCorpus(PROSE);
  const dir = workspace(info);
  const mb = (COPIES * info.bytes) / 1e6;
  const auto = poolV8Flags(PROCESSES).length > 0 ? 'off' : 'on';
  const lines = [
    `bench/tag --pool — ${COPIES} links to the real-prose file (${mb.toFixed(1)} MB of text), \`assay tag --processes ${PROCESSES}\` on ${availableParallelism()} cores, whole process tree (start-up included), median of ${RUNS} alternated runs; the pool's choice here: background threads ${auto}`,
  ];
  try {
    for (const p of PASSES) {
      const off: Run[] = [];
      const on: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        off.push(once(dir, p.args, 'off'));
        on.push(once(dir, p.args, 'on'));
      }
      const [wOff, cOff, wOn, cOn] = [median(off.map((r) => r.wall)), median(off.map((r) => r.cpu)), median(on.map((r) => r.wall)), median(on.map((r) => r.cpu))];
      lines.push(`  ${p.name}`);
      lines.push(`    V8 background threads off: wall ${wOff.toFixed(2)} s, CPU ${cOff.toFixed(2)} s (${(mb / cOff).toFixed(2)} MB per CPU second)`);
      lines.push(`    V8 background threads on:  wall ${wOn.toFixed(2)} s, CPU ${cOn.toFixed(2)} s (${(mb / cOn).toFixed(2)} MB per CPU second)`);
      lines.push(`    off ÷ on: wall ${(wOff / wOn).toFixed(3)}, CPU ${(cOff / cOn).toFixed(3)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
