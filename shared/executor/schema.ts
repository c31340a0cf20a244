// Where a stage runs: `executor:` in a config (under `assay:` where the config is Dolma's) or the `--executor` flags.
import { z } from 'zod';

/**
 * One line of the sbatch script: a value with a line break (or NUL) would start a new line there, which bash
 * runs as a command. Every string option is refused with one rather than escaped.
 */
const line = z.string().min(1).regex(/^[^\r\n\0]*$/, 'must be one line (no line breaks)');

export const executorConfig = z
  .object({
    type: z.enum(['local', 'slurm']).default('local'),
    /** Array tasks (default: one per input file; dedupe: 2 hash partitions). */
    tasks: z.number().int().min(1).optional(),
    partition: line.optional(),
    cpus_per_task: z.number().int().min(1).default(1),
    /** `--mem` as Slurm takes it: `4G`, `500M`. */
    mem: line.optional(),
    /** `--time`: `1:00:00`, `2-00:00:00`. */
    time: line.optional(),
    qos: line.optional(),
    account: line.optional(),
    /** `--array=…%K`: most tasks running at once. */
    max_concurrent: z.number().int().min(1).optional(),
    /** Extra `#SBATCH` lines, as written after `#SBATCH ` (e.g. `--constraint=skylake`). */
    sbatch_args: z.array(line).default([]),
    /** A shell line run before each task (e.g. `source ~/venv/bin/activate` or `module load nodejs`). */
    env_command: line.optional(),
    /** Completions, logs, scripts and the task assignment (default `.assay-slurm/<verb>` under the working directory). */
    logging_dir: line.optional(),
  })
  .strict();

export type ExecutorConfig = z.infer<typeof executorConfig>;
