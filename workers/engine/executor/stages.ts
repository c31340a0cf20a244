// Tokens, MinHash, WARC, import and index on Slurm: token groups published together, signatures → buckets → clusters, files per task.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { MinhashConfig } from '../../../shared/dedupe/minhash-schema.js';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { stringOption, UsageError, type ParsedArgs } from '../cli/args.js';
import { formatMinhashSummary, loadMinhashConfig } from '../cli/minhash.js';
import { stderrLine } from '../cli/stderr.js';
import { formatTokensSummary, loadTokensConfig, tokensOptions } from '../cli/tokens.js';
import { warcOptions } from '../cli/warc.js';
import { importOptions } from '../cli/parquet.js';
import { indexCommand } from '../cli/index.js';
import { discover } from '../index/build/discover.js';
import { extractFile } from '../index/build/extract.js';
import type { PreExtracted } from '../index/build/build.js';
import { planImport, runImport, writeImportManifest, type ImportFileSummary, type ImportOptions } from '../parquet/index.js';
import { runWarc } from '../warc/index.js';
import { planWarcTasks } from '../warc/plan.js';
import { bucketPairs, runMinhash, signMinhashFiles } from '../dedupe/minhash/index.js';
import { writeFileAtomic } from '../io/index.js';
import { finishTokensSlices, planTokens, runTokensSlice, type TokensOptions } from '../tokenize/runtime.js';
import type { GroupResult } from '../tokenize/group.js';
import { assign, rerunSkippingDone, resolvedInputs, taskCount, type PlannedRun, type VerbAdapter } from './adapters.js';

const resultFile = (dir: string, verb: string, task: number): string => join(dir, verb, `task-${task}.v8`);

export const tokensAdapter: VerbAdapter = {
  async plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
    const configPath = stringOption(args, 'config');
    const options = tokensOptions(args, configPath ? await loadTokensConfig(resolve(cwd, configPath)) : null);
    const files = await resolvedInputs(options.documents, cwd, 'documents');
    // Dolma's grouping of the seeded shuffle: task i writes the part-<i> files a local run with N processes writes.
    const { tasks } = await planTokens({ ...options, cwd }, cwd, taskCount(executor, files.length));
    return { tasks: tasks.map((t) => ({ inputs: t.files.map((f) => f.path), argv: null })), data: { options }, hasFinal: true };
  },
  async runTask(run, i, dir, signal) {
    const { options } = run.data as { options: TokensOptions };
    const r = await runTokensSlice({ ...options, cwd: run.cwd, signal, log: stderrLine }, { task: i, of: run.tasks.length });
    // v8 serialisation: the per-source counts are Maps.
    await writeFileAtomic(resultFile(dir, 'tokens', i), serialize(r), { mkdir: true });
    process.stdout.write(`task ${i}: ${r.result.docs} document(s), ${r.result.tokens} token(s) in ${r.result.parts.length} temporary part(s)\n`);
    return 0;
  },
  async finalize(run, dir) {
    const { options } = run.data as { options: TokensOptions };
    const slices: { result: GroupResult; bytes: number }[] = [];
    for (let i = 0; i < run.tasks.length; i++) slices.push(deserialize(await readFile(resultFile(dir, 'tokens', i))) as { result: GroupResult; bytes: number });
    const summary = await finishTokensSlices({ ...options, cwd: run.cwd }, slices, new Date(run.created));
    process.stdout.write(formatTokensSummary(summary));
  },
};

const pairsFile = (dir: string, bucket: number): string => join(dir, 'minhash', `bucket-${bucket}.pairs`);

/** DataTrove's stages: signatures per task → one task per bucket (its duplicate pairs) → one job clusters and writes. */
export const minhashAdapter: VerbAdapter = {
  async plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
    const path = stringOption(args, 'config');
    if (!path) throw new UsageError('minhash needs -c CONFIG');
    const config = await loadMinhashConfig(resolve(cwd, path));
    const inputs = await resolvedInputs(config.documents, cwd, 'documents');
    const tasks = assign(inputs, taskCount(executor, inputs.length)).map((slice) => ({ inputs: slice, argv: null }));
    const buckets = Array.from({ length: config.num_buckets }, () => ({ inputs, argv: null }));
    return { tasks, stages: [{ name: 'buckets', tasks: buckets }], data: { config, inputs }, hasFinal: true };
  },
  async runTask(run, i, _dir, signal) {
    const { config, inputs } = run.data as { config: MinhashConfig; inputs: string[] };
    const r = await signMinhashFiles(config, inputs, run.tasks[i]!.inputs, { cwd: run.cwd, signal });
    process.stdout.write(`task ${i}: signed ${r.signed} file(s)${r.reused ? `, ${r.reused} already signed` : ''}\n`);
    return 0;
  },
  async runStageTask(run, _stage, b, dir, signal) {
    const { config, inputs } = run.data as { config: MinhashConfig; inputs: string[] };
    const r = bucketPairs(config, inputs, b, pairsFile(dir, b), { cwd: run.cwd, signal });
    process.stdout.write(`bucket ${b}: ${r.pairs} matching band(s)\n`);
    return 0;
  },
  async finalize(run, dir, signal) {
    const { config } = run.data as { config: MinhashConfig };
    const pairs = Array.from({ length: config.num_buckets }, (_, b) => pairsFile(dir, b));
    const s = await runMinhash(config, { cwd: run.cwd, pairs, signal, log: stderrLine });
    process.stdout.write(formatMinhashSummary(s));
  },
};

/** The command line as data, so a task can rebuild the options its verb reads (Maps do not survive JSON). */
const argsData = (a: ParsedArgs): { command: string | undefined; options: [string, string | true | string[]][]; positionals: string[] } => ({ command: a.command, options: [...a.options], positionals: a.positionals });

export const warcAdapter: VerbAdapter = {
  async plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
    const o = await warcOptions(args);
    // Outputs are named relative to each glob's base, so tasks get files of the whole plan, never new globs.
    const inputs = (await planWarcTasks(o.documents, o.destination, cwd, stderrLine)).map((t) => t.input).sort();
    const tasks = assign(inputs, taskCount(executor, inputs.length)).map((slice) => ({ inputs: slice, argv: null }));
    return { tasks, data: { args: argsData(args) }, hasFinal: true };
  },
  async runTask(run, i, _dir, signal) {
    const { args } = run.data as { args: ReturnType<typeof argsData> };
    const o = await warcOptions({ command: args.command, options: new Map(args.options), positionals: args.positionals }, signal);
    const s = await runWarc({ ...o, cwd: run.cwd, only: run.tasks[i]!.inputs });
    process.stdout.write(`task ${i}: ${s.files.length} WARC file(s), ${s.totals.kept} page(s) kept\n`);
    return 0;
  },
  // Every file is marked done by then: the whole command only writes the run manifest.
  finalArgv: (run) => rerunSkippingDone(run),
};

export const importAdapter: VerbAdapter = {
  async plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
    const options = importOptions(args);
    // The whole plan is checked first (text column present, no two files onto one output), then split.
    const inputs = (await planImport({ ...options, log: stderrLine }, cwd)).map((p) => p.input).sort();
    const tasks = assign(inputs, taskCount(executor, inputs.length)).map((slice) => ({ inputs: slice, argv: null }));
    return { tasks, data: { options }, hasFinal: true };
  },
  async runTask(run, i, dir, signal) {
    const { options } = run.data as { options: ImportOptions };
    const s = await runImport({ ...options, cwd: run.cwd, only: run.tasks[i]!.inputs, signal });
    await writeFileAtomic(resultFile(dir, 'import', i), serialize(s.files), { mkdir: true });
    process.stdout.write(`task ${i}: imported ${s.files.length} file(s), ${s.docs} document(s)\n`);
    return 0;
  },
  async finalize(run, dir) {
    const { options } = run.data as { options: ImportOptions };
    const files: ImportFileSummary[] = [];
    for (let i = 0; i < run.tasks.length; i++) files.push(...(deserialize(await readFile(resultFile(dir, 'import', i))) as ImportFileSummary[]));
    files.sort((a, b) => (a.input < b.input ? -1 : a.input > b.input ? 1 : 0));
    await writeImportManifest(options, run.cwd, files, new Date(run.created));
    process.stdout.write(`imported ${files.length} file(s), ${files.reduce((n, f) => n + f.docs, 0)} document(s); run manifest written\n`);
  },
};

/**
 * Index: the array tasks read the documents and attribute files (the bulk of a build), the final step writes
 * them into the one SQLite index, then counts tokens and builds the search table as `assay index` does.
 */
export const indexAdapter: VerbAdapter = {
  async plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
    const rootArg = args.positionals[0];
    if (rootArg === undefined || args.positionals.length > 1) throw new UsageError('index needs one dataset folder: assay index DATASET_ROOT');
    const root = resolve(cwd, rootArg);
    const found = await discover(root);
    const files = found.documents.map((d) => d.path).sort();
    if (files.length === 0) throw new UsageError(`no documents files under ${root}/documents`);
    const attrs = (f: string): string[] => found.sets.flatMap((s) => { const a = found.attributes.get(s)?.get(f); return a ? [join(root, a.path)] : []; });
    const tasks = assign(files, taskCount(executor, files.length)).map((slice) => ({ inputs: slice.flatMap((f) => [join(root, f), ...attrs(f)]), argv: null, files: slice }));
    return { tasks: tasks.map(({ inputs, argv }) => ({ inputs, argv })), data: { root, args: argsData(args), files: tasks.map((t) => t.files) }, hasFinal: true };
  },
  async runTask(run, i, dir, signal) {
    const { root, files } = run.data as { root: string; files: string[][] };
    const found = await discover(root);
    const stamp = new Map<string, { size: number; mtimeMs: number }>(found.documents.map((d) => [d.path, { size: d.size, mtimeMs: d.mtimeMs }]));
    const out = new Map<string, PreExtracted>();
    for (const file of files[i] ?? []) {
      const sets = found.sets.filter((s) => found.attributes.get(s)?.has(file));
      const stamps: PreExtracted['stamps'] = { [file]: stamp.get(file)! };
      for (const s of sets) { const a = found.attributes.get(s)!.get(file)!; stamps[a.path] = { size: a.size, mtimeMs: a.mtimeMs }; }
      out.set(file, { extract: await extractFile({ root, file, docs: true, sets }, signal), sets, stamps });
    }
    await writeFileAtomic(resultFile(dir, 'index', i), serialize(out), { mkdir: true });
    process.stdout.write(`task ${i}: read ${out.size} documents file(s)\n`);
    return 0;
  },
  async finalize(run, dir, signal) {
    const { args } = run.data as { args: ReturnType<typeof argsData> };
    const extracted = new Map<string, PreExtracted>();
    for (let i = 0; i < run.tasks.length; i++) for (const [k, v] of deserialize(await readFile(resultFile(dir, 'index', i))) as Map<string, PreExtracted>) extracted.set(k, v);
    const code = await indexCommand({ command: args.command, options: new Map(args.options), positionals: args.positionals }, signal, { extracted });
    if (code !== 0) throw new Error(`assay index exited with ${code}`);
  },
};
