// bench/startup: wall time of the built `assay` CLI on a one-document corpus (--help, tag, mix), medians of fresh processes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DATA_DIR, numberArg, scaled, SMOKE } from '../args.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'bin/assay.js');
const WORK = join(DATA_DIR, 'startup');
const RUNS = numberArg('runs', scaled(9, 2));
const TARGET_SEC = 0.4;

// Plain English prose that FineWeb's preset keeps (enough sentences, words and terminal punctuation), so
// `mix` does the whole job: merge attributes, apply the span replacements, write a shard and the ledger.
const TEXT = [
  'The river runs through the middle of the old town, and most of the houses along its banks were built of grey stone.',
  'Every spring the water rises after the snow melts in the hills, so the people who live there keep sandbags ready.',
  'A small market opens on the bridge each Saturday morning, where farmers sell bread, cheese, apples and honey.',
  'Children walk to the school on the hill, which has taught the families of the valley for more than two hundred years.',
  'In the evening the lamps along the quay are lit one by one, and the cafes fill with people talking about the day.',
  'Visitors who want to learn more can write to the town office at info@example.org or call in at the library.',
  'The museum near the church tells the story of the mills that once stood beside the river and the families who ran them.',
].join('\n');

/** A dataset root with one gzipped document and FineWeb's preset (configs/fineweb.yaml) pointed at it. */
function prepare(): { config: string } {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, 'dataset/documents'), { recursive: true });
  const doc = { id: 'doc-1', text: TEXT, source: 'startup', metadata: { url: 'https://example.com/one' } };
  writeFileSync(join(WORK, 'dataset/documents/one.jsonl.gz'), gzipSync(`${JSON.stringify(doc)}\n`));
  const config = join(WORK, 'fineweb.yaml');
  // The preset's relative paths (dataset/…, output/…) resolve against the working directory, WORK.
  writeFileSync(config, readFileSync(join(REPO, 'configs/fineweb.yaml'), 'utf8'));
  return { config };
}

// The child reports its own CPU time (all threads, user + system) as it exits: on a machine shared with other
// work, wall time waits for a core but CPU time barely moves, so it tells a slow command from a busy machine.
const REPORT_CPU = `data:text/javascript,import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); writeSync(2, '\\nASSAY_BENCH_CPU ' + (u.user + u.system) + '\\n'); });`;

/** One command (`node bin/assay.js ARGS`, or `node -e 0` for no args) in a fresh process: wall (spawn to exit) and CPU seconds. */
function timeOnce(args: readonly string[], before?: () => void, env?: NodeJS.ProcessEnv): { wall: number; cpu: number } {
  before?.();
  const argv = args.length === 0 ? ['--import', REPORT_CPU, '-e', '0'] : ['--import', REPORT_CPU, BIN, ...args];
  const t = performance.now();
  const r = spawnSync(process.execPath, argv, { cwd: WORK, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`assay ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = /ASSAY_BENCH_CPU (\d+)/.exec(r.stderr)?.[1];
  if (cpu === undefined) throw new Error(`assay ${args.join(' ')} reported no CPU time: ${r.stderr}`);
  return { wall, cpu: Number(cpu) / 1e6 };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

interface Case {
  name: string;
  args: string[];
  /** Undo the previous run's output so each run does the whole job (a rerun would skip completed files). */
  before?: () => void;
  /** Whether the issue's ≤ 0.4 s target applies. */
  targeted: boolean;
  env?: NodeJS.ProcessEnv;
}

function main(): void {
  const build = spawnSync(process.execPath, [join(REPO, 'scripts/build-engine.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('scripts/build-engine.mjs failed');
  const { config } = prepare();
  const clear = (path: string) => (): void => rmSync(join(WORK, path), { recursive: true, force: true });
  const cases: Case[] = [
    { name: 'assay --help', args: ['--help'], targeted: false },
    { name: 'node -e 0 (Node alone)', args: [], targeted: false },
    { name: 'assay tag, one tagger (gopher_v1)', args: ['tag', '--documents', 'dataset/documents/*.jsonl.gz', '--taggers', 'gopher_v1', '--experiment', 'one', '--quiet'], before: clear('dataset/attributes/one'), targeted: true },
    { name: 'assay tag -c fineweb.yaml (7 taggers, lid.176)', args: ['tag', '-c', config, '--quiet'], before: clear('dataset/attributes/fineweb'), targeted: true },
    { name: 'assay mix -c fineweb.yaml (6 rules, 11 span edits)', args: ['mix', '-c', config, '--quiet'], before: clear('output'), targeted: true },
    { name: 'assay tag -c fineweb.yaml, ES modules (cache off)', args: ['tag', '-c', config, '--quiet'], before: clear('dataset/attributes/fineweb'), targeted: false, env: { ASSAY_CODE_CACHE: '0' } },
  ];
  // Each verb's first run after a build compiles everything and writes V8's code cache (workers/engine/code-cache/); the
  // runs measured after it start from that cache. The first run is timed and shown on its own.
  rmSync(join(REPO, 'dist/code-cache'), { recursive: true, force: true });
  // Cases run in order: mix reads the attributes the `tag -c` runs before it leave behind.
  console.log(`assay start-up on a one-document corpus, ${RUNS} fresh processes per command, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}${SMOKE ? ' [smoke run: numbers mean nothing]' : ''}`);
  console.log(`  ${'command'.padEnd(52)} first run   wall median (min–max)    CPU median   target ${TARGET_SEC} s (wall median)`);
  let met = true;
  for (const c of cases) {
    const first = timeOnce(c.args, c.before, c.env);
    const runs = Array.from({ length: RUNS }, () => timeOnce(c.args, c.before, c.env));
    const wall = runs.map((r) => r.wall);
    const m = median(wall);
    const verdict = c.targeted ? (m <= TARGET_SEC ? 'met' : 'NOT met') : '';
    if (c.targeted && m > TARGET_SEC) met = false;
    const range = `${m.toFixed(3)} s (${Math.min(...wall).toFixed(3)}–${Math.max(...wall).toFixed(3)})`;
    console.log(`  ${c.name.padEnd(52)} ${first.wall.toFixed(3)} s     ${range.padEnd(24)} ${median(runs.map((r) => r.cpu)).toFixed(3)} s      ${verdict}`);
  }
  console.log(met ? `every targeted command within ${TARGET_SEC} s (wall median)` : `some targeted command above ${TARGET_SEC} s (wall median)`);
}

main();
