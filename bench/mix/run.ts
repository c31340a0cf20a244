// bench/mix: mixer MB/s per core vs the I/O floor, and 2-process speedups of both, measured in one run.
import { DATA_DIR, numberArg, runMeasured, scaled } from '../args.js';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ledgerPathFor } from '../../workers/engine/ledger/schema.js';
import { parseMixerConfig } from '../../workers/engine/mix/config.js';
import { runMix } from '../../workers/engine/mix/mixer.js';
import { benchRecipe, ensureCorpus, type CorpusInfo } from './corpus.js';
import { floorParallel, floorSerial } from './floor.js';
import { ensureSmallCorpus, smallRecipe } from './small.js';

const ROOT = join(DATA_DIR, 'mix');
const arg = numberArg;
const SIZE_MB = arg('mb', scaled(200, 4));
const FILES = arg('files', 8);
const SMALL_MB = arg('small-mb', scaled(60, 2));
const SMALL_FILES = arg('small-files', scaled(4, 1));
const only = process.argv.find((a) => a === 'floor' || a === 'mix' || a === 'mix-no-ledger');
/** `--small`: the measurement runs on the small-document corpus (~600 B documents, four attribute sets). */
const SMALL = process.argv.includes('--small');

function corpus(small = SMALL): CorpusInfo {
  return small ? ensureSmallCorpus(join(DATA_DIR, 'mix-small'), SMALL_MB, SMALL_FILES) : ensureCorpus(ROOT, SIZE_MB, FILES);
}

/** CPU seconds of this process (main thread and the libuv pool's zlib threads) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
};

async function timeIt(f: () => Promise<number>): Promise<{ sec: number; bytes: number; cpu: number }> {
  const t = performance.now();
  const c = process.cpuUsage();
  const bytes = await f();
  return { sec: (performance.now() - t) / 1000, bytes, cpu: cpuSince(c) };
}

async function mix(info: CorpusInfo, processes: number, ledger = true): Promise<{ sec: number; bytes: number; cpu: number; kept: number; read: number; ledgerBytes: number }> {
  const out = join(ROOT, `out-mix${SMALL ? '-small' : ''}-${processes}${ledger ? '' : '-no-ledger'}`);
  rmSync(out, { recursive: true, force: true });
  const recipe = SMALL ? smallRecipe(info.root, out, processes) : benchRecipe(info.root, out, processes);
  const cfg = parseMixerConfig(recipe, 'bench-recipe.yaml');
  const t = performance.now();
  const c = process.cpuUsage();
  const s = await runMix(cfg, { processes, ledger });
  const st = s.streams[0]!;
  const ledgerBytes = ledger ? statSync(ledgerPathFor(out)).size : 0;
  return { sec: (performance.now() - t) / 1000, bytes: st.bytes.in, cpu: cpuSince(c), kept: st.docs.kept, read: st.docs.read, ledgerBytes };
}

async function floor(info: CorpusInfo, processes: number): Promise<{ sec: number; bytes: number; cpu: number }> {
  const out = join(ROOT, `out-floor${SMALL ? '-small' : ''}-${processes}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  return timeIt(() => (processes === 1 ? floorSerial(info.files, out) : floorParallel(info.files, out, processes)));
}

const mbps = (r: { sec: number; bytes: number }): number => r.bytes / 1e6 / r.sec;

/** One measurement in a fresh process; 1-process runs are pinned to one core so "per core" means one core. */
interface Measured {
  sec: number;
  bytes: number;
  /** CPU seconds in the measuring process (1-process runs; a pool's children are not counted). */
  cpu: number;
  kept?: number;
  read?: number;
  ledgerBytes?: number;
}

function measure(kind: 'floor' | 'mix' | 'mix-no-ledger', processes: number, small = false): Measured {
  const self = fileURLToPath(import.meta.url);
  const sizes = ['--mb', String(SIZE_MB), '--files', String(FILES), '--small-mb', String(SMALL_MB), '--small-files', String(SMALL_FILES)];
  const node = [process.execPath, '--import', 'tsx', self, kind, '--processes', String(processes), ...sizes, ...(small ? ['--small'] : []), '--json'];
  return runMeasured<Measured>(node, `${kind} --processes ${processes}${small ? ' --small' : ''}`, { pin: processes === 1 });
}

async function main(): Promise<void> {
  const info = corpus();
  const p = arg('processes', 0);
  if (only) {
    const r = only === 'floor' ? await floor(info, p || 1) : await mix(info, p || 1, only === 'mix');
    if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(r) + '\n');
    else process.stdout.write(`${only} processes=${p || 1}: ${mbps(r).toFixed(1)} MB/s (${r.sec.toFixed(2)} s, ${r.cpu.toFixed(2)} s CPU)\n`);
    return;
  }
  const small = corpus(true);
  process.stderr.write(`corpus: ${info.docs.toLocaleString('en-US')} docs, ${(info.bytes / 1e6).toFixed(0)} MB uncompressed, ${info.files.length} files; ${cpus().length} cores\n`);
  const f1 = measure('floor', 1);
  // With and without the ledger, alternated twice on one pinned core; each side's faster run (less noise).
  const pairs = [0, 1].map(() => ({ with: measure('mix', 1), without: measure('mix-no-ledger', 1) }));
  const fastest = <T extends { sec: number }>(xs: T[]): T => xs.reduce((a, b) => (b.sec < a.sec ? b : a));
  const m1 = fastest(pairs.map((x) => x.with));
  const n1 = fastest(pairs.map((x) => x.without));
  const f2 = measure('floor', 2);
  const m2 = measure('mix', 2);
  // The small-document corpus, one pinned core: floor and mixer alternated twice, each side's faster run.
  const smallRuns = [0, 1].map(() => ({ floor: measure('floor', 1, true), mix: measure('mix', 1, true) }));
  const sf1 = fastest(smallRuns.map((x) => x.floor));
  const sm1 = fastest(smallRuns.map((x) => x.mix));
  const smallRatio = mbps(sm1) / mbps(sf1);
  const usPerDoc = (1e6 * sm1.sec) / Math.max(1, sm1.read ?? 1);
  const rows = [
    ['I/O floor, 1 process (1 core)', mbps(f1)],
    ['mixer (20 rules), 1 process (1 core)', mbps(m1)],
    ['I/O floor, 2 processes', mbps(f2)],
    ['mixer (20 rules), 2 processes', mbps(m2)],
  ] as const;
  const ratio = mbps(m1) / mbps(f1);
  const floorSpeedup = mbps(f2) / mbps(f1);
  const mixSpeedup = mbps(m2) / mbps(m1);
  const lines = [
    `bench/mix — ${(info.bytes / 1e6).toFixed(0)} MB uncompressed (gzip input, gzip-6 output), ${(m1.read ?? 0).toLocaleString('en-US')} docs, kept ${(m1.kept ?? 0).toLocaleString('en-US')}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(38)} ${v.toFixed(1).padStart(6)} MB/s`),
    `  mixer ÷ floor, per core               ${ratio.toFixed(2)}   (target ≥ 0.70); by CPU time ${(f1.cpu / m1.cpu).toFixed(2)}`,
    `  mixer without the ledger, 1 core       ${mbps(n1).toFixed(1).padStart(6)} MB/s`,
    `  ledger overhead (1 core)              ${((100 * (m1.sec - n1.sec)) / n1.sec).toFixed(1).padStart(5)} %   (target ≤ 10 %); ledger ${((m1.ledgerBytes ?? 0) / Math.max(1, m1.read ?? 1)).toFixed(0)} bytes per input document (${((m1.ledgerBytes ?? 0) / 1e6).toFixed(1)} MB)`,
    `  2-process speedup: floor ${floorSpeedup.toFixed(2)}×, mixer ${mixSpeedup.toFixed(2)}× → ${(mixSpeedup / floorSpeedup).toFixed(2)} of the floor's (target ≥ 0.90)`,
    `small documents — ${(small.bytes / 1e6).toFixed(0)} MB, ${small.docs.toLocaleString('en-US')} docs of ${(small.bytes / Math.max(1, small.docs)).toFixed(0)} B, 4 attribute sets, 6 rules + 2 span replacements, kept ${(sm1.kept ?? 0).toLocaleString('en-US')}`,
    `  I/O floor, 1 core                     ${mbps(sf1).toFixed(1).padStart(6)} MB/s`,
    `  mixer, 1 core                         ${mbps(sm1).toFixed(1).padStart(6)} MB/s   (${usPerDoc.toFixed(1)} µs per document)`,
    `  mixer ÷ floor, small documents        ${smallRatio.toFixed(2)}   (target ≥ 0.70); by CPU time ${(sf1.cpu / sm1.cpu).toFixed(2)}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(join(ROOT, 'result.json'), JSON.stringify({ floor1: mbps(f1), mix1: mbps(m1), mixNoLedger1: mbps(n1), ledgerOverhead: (m1.sec - n1.sec) / n1.sec, ledgerBytesPerDoc: (m1.ledgerBytes ?? 0) / Math.max(1, m1.read ?? 1), floor2: mbps(f2), mix2: mbps(m2), ratio, floorSpeedup, mixSpeedup, smallFloor1: mbps(sf1), smallMix1: mbps(sm1), smallRatio, smallUsPerDoc: usPerDoc }, null, 2));
}

await main();
