// A real single-node Slurm for tests and benches (../shared/specs/slurm-local.md): installed where missing, started, stopped.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPTS = join(REPO, 'scripts', 'slurm');

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

export type Cluster = { conf: string; stop: () => void } | { skip: string };

/** Installs the four Debian packages when missing (root with apt only), then starts munged, slurmctld and slurmd under `base`. */
export function startSlurm(base: string, ports: { ctld: number; slurmd: number; node?: string } = { ctld: 6817, slurmd: 6818 }): Cluster {
  if (!has('sbatch') || !has('slurmctld') || !has('slurmd') || !has('munged')) {
    if (process.getuid?.() !== 0 || !has('apt-get')) return { skip: 'Slurm is not installed and cannot be (needs root and apt-get: slurmctld slurmd slurm-client munge)' };
    const r = spawnSync('sh', ['-c', 'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge)'], { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) return { skip: `Slurm could not be installed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / ')}` };
  }
  // Own ports (and node name) per caller, so the bench and the tests can each have a cluster at once.
  const env = { ...process.env, SLURM_BASE: base, CTLD_PORT: String(ports.ctld), SLURMD_PORT: String(ports.slurmd), ...(ports.node ? { NODE_NAME: ports.node } : {}) };
  execFileSync(join(SCRIPTS, 'start-slurm.sh'), { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  const conf = join(base, 'etc', 'slurm.conf');
  return { conf, stop: () => void spawnSync(join(SCRIPTS, 'stop-slurm.sh'), { env, stdio: 'ignore', timeout: 60_000 }) };
}

/** This checkout's sources through tsx, whatever the task's working directory (one Slurm test starts its tasks so). */
export const SOURCE_COMMAND = [process.execPath, '--import', join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs'), join(REPO, 'workers', 'engine', 'bin.ts')];
/**
 * The bundled CLI, as users submit it (build it first: `ensureBuilt()` of cli/run-cli.ts). A task starts in ≈ 0.3 s
 * instead of ≈ 1.2 s through tsx, and a Slurm test file runs dozens of tasks.
 */
export const BUILT_COMMAND = [process.execPath, join(REPO, 'bin', 'assay.js')];
