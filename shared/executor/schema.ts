// Where a stage runs: `executor:` in a config (under `assay:` where the config is Dolma's) or the `--executor` flags.
import { z } from 'zod';

export const executorConfig = z
  .object({
    type: z.enum(['local', 'slurm']).default('local'),
    /** Array tasks (default: one per input file; dedupe: 2 hash partitions). */
    tasks: z.number().int().min(1).optional(),
    partition: z.string().min(1).optional(),
    cpus_per_task: z.number().int().min(1).default(1),
    /** `--mem` as Slurm takes it: `4G`, `500M`. */
    mem: z.string().min(1).optional(),
    /** `--time`: `1:00:00`, `2-00:00:00`. */
    time: z.string().min(1).optional(),
    qos: z.string().min(1).optional(),
    account: z.string().min(1).optional(),
    /** `--array=…%K`: most tasks running at once. */
    max_concurrent: z.number().int().min(1).optional(),
    /** Extra `#SBATCH` lines, as written after `#SBATCH ` (e.g. `--constraint=skylake`). */
    sbatch_args: z.array(z.string().min(1)).default([]),
    /** A shell line run before each task (e.g. `source ~/venv/bin/activate` or `module load nodejs`). */
    env_command: z.string().min(1).optional(),
    /** Completions, logs, scripts and the task assignment (default `.assay-slurm/<verb>` under the working directory). */
    logging_dir: z.string().min(1).optional(),
  })
  .strict();

export type ExecutorConfig = z.infer<typeof executorConfig>;
