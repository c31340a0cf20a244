// bench/slurm: the bench/mix recipe locally (2 processes) and as a 2-task Slurm array on this 2-core node, in one run.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_DIR, scaled, SMOKE } from '../args.js';
import { benchRecipe, ensureCorpus } from '../mix/corpus.js';
import { startSlurm } from '../../workers/engine/executor/testing.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ASSAY = [process.execPath, join(REPO, 'bin', 'assay.js')];
const root = join(DATA_DIR, 'slurm-corpus');
const info = ensureCorpus(root, scaled(200, 4), scaled(8, 4));
const cluster = startSlurm(join(DATA_DIR, 'slurm-cluster'), { ctld: 6827, slurmd: 6828, node: 'benchnode' });
if ('skip' in cluster) {
  process.stderr.write(`bench/slurm: ${cluster.skip}\n`);
  process.exit(1);
}
const env = { ...process.env, SLURM_CONF: cluster.conf };

function timed(args: string[]): number {
  const t = performance.now();
  const r = spawnSync(ASSAY[0]!, [...ASSAY.slice(1), ...args], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`assay ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return (performance.now() - t) / 1000;
}

try {
  const out = (name: string): string => join(root, `out-${name}`);
  // Small shards on the smoke corpus too, so it has at least two for the two tasks.
  const recipe = (o: string, p: number): string => benchRecipe(join(root, 'data'), o, p).replace('max_size_in_bytes: 8000000', `max_size_in_bytes: ${scaled(8_000_000, 500_000)}`);
  writeFileSync(join(root, 'local.yaml'), recipe(out('local'), 2));
  writeFileSync(join(root, 'slurm.yaml'), recipe(out('slurm'), 1));
  const logs = join(root, 'slurm-logs');
  const runs = scaled(3, 1);
  const local: number[] = [];
  const slurm: number[] = [];
  const taskSecs: number[][] = [];
  for (let i = 0; i < runs; i++) {
    rmSync(out('local'), { recursive: true, force: true });
    local.push(timed(['mix', '-c', 'local.yaml', '-q']));
    rmSync(out('slurm'), { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
    slurm.push(timed(['mix', '-c', 'slurm.yaml', '--executor', 'slurm', '--tasks', '2', '--cpus-per-task', '1', '--logging-dir', logs, '--wait']));
    const secs = (f: string): number => (JSON.parse(readFileSync(join(logs, 'completions', f), 'utf8')) as { elapsedSec: number }).elapsedSec;
    taskSecs.push([secs('task-0.json'), secs('task-1.json'), secs('final.json')]);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const k = slurm.indexOf(median(slurm));
  const [t0, t1, fin] = taskSecs[k] as [number, number, number];
  // What Slurm adds: the wall time beyond the work itself (the slower task, then the final step), per job it ran (2 tasks + final).
  const overhead = median(slurm) - (Math.max(t0, t1) + fin);
  process.stdout.write(
    `bench/slurm${SMOKE ? ' (smoke)' : ''}: mix of ${(info.bytes / 1e6).toFixed(0)} MB, ${info.docs.toLocaleString('en-US')} docs in ${info.files.length} files, median of ${runs}\n` +
      `  local, 2 processes:          ${median(local).toFixed(2)} s wall\n` +
      `  slurm, 2-task array + final: ${median(slurm).toFixed(2)} s wall (tasks ${t0.toFixed(2)} s and ${t1.toFixed(2)} s, final step ${fin.toFixed(2)} s)\n` +
      `  slurm ÷ local: ${(median(slurm) / median(local)).toFixed(2)}; scheduler and start-up overhead ${overhead.toFixed(2)} s per run, ${(overhead / 3).toFixed(2)} s per job (2 tasks + final)\n`,
  );
} finally {
  cluster.stop();
}
