// `assay jobs status|cancel DIR` for Slurm runs, and `jobs task|stage-task|finalize`, what the array tasks and the final step run.
import { resolve } from 'node:path';
import { ADAPTERS } from '../executor/adapters.js';
import { cancelRun } from '../executor/cancel.js';
import { markComplete, readRun, validCompletion, type RunPlan, type StampCache } from '../executor/state.js';
import { runStatus } from '../executor/status.js';
import { AssayError } from '../errors.js';
import { UsageError, type ParsedArgs } from './args.js';

const USAGE = 'assay jobs status LOGGING_DIR [--json] | assay jobs cancel LOGGING_DIR';

async function loadRun(dir: string | undefined): Promise<{ dir: string; run: RunPlan }> {
  if (dir === undefined) throw new UsageError(`a logging dir is needed: ${USAGE}`);
  const abs = resolve(dir);
  const run = await readRun(abs);
  if (run === null) throw new AssayError('IO', 'no Assay Slurm run here (run.json is missing)', { file: abs });
  return { dir: abs, run };
}

/** Runs an `assay` command line in this process (the task's own verb, never sent back to Slurm). */
async function runArgv(argv: readonly string[]): Promise<number> {
  const { main } = await import('../cli.js');
  return main([...argv, '--executor', 'local']);
}

async function runTask(dir: string, run: RunPlan, which: string | undefined, signal: AbortSignal): Promise<number> {
  const raw = which ?? process.env.SLURM_ARRAY_TASK_ID;
  const i = Number(raw);
  if (raw === undefined || !Number.isInteger(i) || i < 0 || i >= run.tasks.length) throw new UsageError(`jobs task needs a task index 0–${run.tasks.length - 1} (argument or SLURM_ARRAY_TASK_ID), got '${raw ?? ''}'`);
  const t = run.tasks[i]!;
  const started = performance.now();
  process.stderr.write(`assay task ${i} of ${run.tasks.length}: ${t.inputs.length} input file(s)\n`);
  const code = t.argv !== null ? await runArgv(t.argv) : await ADAPTERS[run.verb]!.runTask!(run, i, dir, signal);
  if (code === 0) await markComplete(dir, i, t.inputs, (performance.now() - started) / 1000);
  return code;
}

async function runStageTask(dir: string, run: RunPlan, stage: string | undefined, which: string | undefined, signal: AbortSignal): Promise<number> {
  const st = run.stages?.find((s) => s.name === stage);
  if (st === undefined) throw new UsageError(`this run has no stage '${stage ?? ''}' (stages: ${(run.stages ?? []).map((s) => s.name).join(', ') || 'none'})`);
  const raw = which ?? process.env.SLURM_ARRAY_TASK_ID;
  const i = Number(raw);
  if (raw === undefined || !Number.isInteger(i) || i < 0 || i >= st.tasks.length) throw new UsageError(`jobs stage-task needs a task index 0–${st.tasks.length - 1}, got '${raw ?? ''}'`);
  const started = performance.now();
  process.stderr.write(`assay ${st.name} task ${i} of ${st.tasks.length}\n`);
  const code = await ADAPTERS[run.verb]!.runStageTask!(run, st.name, i, dir, signal);
  if (code === 0) await markComplete(dir, i, st.tasks[i]!.inputs, (performance.now() - started) / 1000, st.name);
  return code;
}

async function finalize(dir: string, run: RunPlan, signal: AbortSignal): Promise<number> {
  const unfinished: string[] = [];
  const cache: StampCache = new Map();
  for (const [i, t] of run.tasks.entries()) if ((await validCompletion(dir, i, t.inputs, undefined, cache)) === null) unfinished.push(String(i));
  for (const st of run.stages ?? []) for (const [i, t] of st.tasks.entries()) if ((await validCompletion(dir, i, t.inputs, st.name, cache)) === null) unfinished.push(`${st.name} ${i}`);
  if (unfinished.length > 0) throw new AssayError('IO', `tasks ${unfinished.join(', ')} have not finished; the final step needs all of them`, { file: dir });
  const started = performance.now();
  const adapter = ADAPTERS[run.verb]!;
  const code = adapter.finalArgv ? await runArgv(adapter.finalArgv(run)) : (await adapter.finalize!(run, dir, signal), 0);
  if (code === 0) await markComplete(dir, 'final', run.tasks.flatMap((t) => t.inputs), (performance.now() - started) / 1000);
  return code;
}

export async function jobsCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const [action, dirArg, extra] = args.positionals;
  const { dir, run } = await loadRun(dirArg);
  switch (action) {
    case 'status': {
      const s = await runStatus(dir);
      if (args.options.get('json') === true) process.stdout.write(JSON.stringify({ dir, verb: run.verb, counts: s.counts, tasks: s.tasks, submissions: run.submissions }, null, 2) + '\n');
      else process.stdout.write(s.lines.join('\n') + '\n');
      return s.failed ? 1 : 0;
    }
    case 'cancel': {
      const ids = await cancelRun(dir, 'all');
      process.stdout.write(`scancel ${ids.join(' ')}: finished tasks keep their outputs; resubmitting the same command runs the rest\n`);
      return 0;
    }
    case 'task':
      return runTask(dir, run, extra, signal);
    case 'stage-task':
      return runStageTask(dir, run, extra, args.positionals[3], signal);
    case 'finalize':
      return finalize(dir, run, signal);
    default:
      throw new UsageError(`unknown jobs action '${action ?? ''}': ${USAGE}`);
  }
}
