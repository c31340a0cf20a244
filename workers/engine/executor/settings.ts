// The executor a command asked for: the `--executor` flags over the config's `assay.executor` block.
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { executorConfig, type ExecutorConfig } from '../../../shared/executor/schema.js';
import { AssayError } from '../errors.js';
import { intOption, listOption, stringOption, UsageError, type ParsedArgs } from '../cli/args.js';

/** The flags of every executor option (stripped from the command each array task runs). */
export const EXECUTOR_FLAGS = ['executor', 'tasks', 'partition', 'cpus-per-task', 'mem', 'time', 'qos', 'account', 'max-concurrent', 'sbatch-arg', 'env-command', 'logging-dir', 'wait'] as const;

/** The `assay.executor` block of a config file, when it has one (the verb validates the rest of the file). */
async function configBlock(path: string | undefined): Promise<unknown> {
  if (path === undefined) return undefined;
  let doc: unknown;
  try {
    const text = await readFile(path, 'utf8');
    // Most configs have no executor block: skip parsing the YAML a second time (start-up of every command).
    if (!text.includes('executor')) return undefined;
    doc = parseYaml(text);
  } catch {
    return undefined; // the verb reports an unreadable or malformed config with its own message
  }
  const assay = (doc as { assay?: { executor?: unknown } } | null)?.assay;
  return assay?.executor;
}

export async function resolveExecutor(args: ParsedArgs): Promise<ExecutorConfig> {
  const configPath = stringOption(args, 'config');
  const block = await configBlock(configPath);
  const parsed = executorConfig.safeParse(block ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AssayError('CONFIG', `assay.executor.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`, { file: configPath, field: `assay.executor.${issue?.path.join('.') ?? ''}` });
  }
  const c = parsed.data;
  // A config travels (recipes are shared); a shell line in one would run on the cluster for whoever mixes it.
  if (c.env_command !== undefined) {
    throw new AssayError('CONFIG', 'assay.executor.env_command: a shell line is taken from --env-command (or the app\'s Slurm settings), not from a config file', { file: configPath, field: 'assay.executor.env_command' });
  }
  const type = stringOption(args, 'executor') ?? c.type;
  if (type !== 'local' && type !== 'slurm') throw new UsageError(`--executor is local or slurm, not '${type}'`);
  const merged = executorConfig.safeParse({
    ...c,
    type,
    tasks: intOption(args, 'tasks') ?? c.tasks,
    partition: stringOption(args, 'partition') ?? c.partition,
    cpus_per_task: intOption(args, 'cpus-per-task') ?? c.cpus_per_task,
    mem: stringOption(args, 'mem') ?? c.mem,
    time: stringOption(args, 'time') ?? c.time,
    qos: stringOption(args, 'qos') ?? c.qos,
    account: stringOption(args, 'account') ?? c.account,
    max_concurrent: intOption(args, 'max-concurrent') ?? c.max_concurrent,
    sbatch_args: [...c.sbatch_args, ...(listOption(args, 'sbatch-arg') ?? [])],
    env_command: stringOption(args, 'env-command') ?? c.env_command,
    logging_dir: stringOption(args, 'logging-dir') ?? c.logging_dir,
  });
  // The flags pass the same checks as the config (one line each).
  if (!merged.success) throw new UsageError(`--${merged.error.issues[0]?.path[0]?.toString().replace(/_/g, '-') ?? 'executor'}: ${merged.error.issues[0]?.message ?? 'invalid'}`);
  return merged.data;
}

/** The command line of a ParsedArgs again, without the executor's flags: what each array task runs (on its slice). */
export function argvOf(args: ParsedArgs, drop: readonly string[] = EXECUTOR_FLAGS): string[] {
  const out: string[] = [args.command ?? '', ...args.positionals];
  for (const [k, v] of args.options) {
    if (drop.includes(k)) continue;
    if (v === true) out.push(`--${k}`);
    else if (Array.isArray(v)) out.push(...(k === 'config' ? v.flatMap((x) => [`--${k}`, x]) : [`--${k}`, ...v]));
    else out.push(`--${k}`, v);
  }
  return out;
}
