// Decontamination on Slurm: the eval index built once while planning, then documents files per task, as tag runs.
import { resolve } from 'node:path';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { UsageError, type ParsedArgs } from '../cli/args.js';
import { deconOptions } from '../cli/decon.js';
import { stderrLine } from '../cli/stderr.js';
import { writeEvalItemsFile } from '../decon/report/items.js';
import { runDecon } from '../decon/run.js';
import { attributePathFor } from '../io/index.js';
import { attributeSetFolder } from '../manifest/write.js';
import { filesPerTask, rerunSkippingDone, resolvedInputs, type PlannedRun, type VerbAdapter } from './adapters.js';

export const deconAdapter: VerbAdapter = {
  async plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
    const o = await deconOptions(args);
    if (o.buildOnly) throw new UsageError('decon --build-only builds the index here: run it without --executor');
    if (!o.documents.length) throw new UsageError('decon needs --documents GLOB… (or documents: in its config)');
    const files = await resolvedInputs(o.documents, cwd, 'documents');
    // Built (or checked) once, here: the tasks only read it. `--rebuild` is spent doing so.
    const { index } = await runDecon({ ...o, cwd, buildOnly: true, log: stderrLine });
    process.stdout.write(`index ${index.path}: ${index.built ? `built in ${index.buildSec.toFixed(1)} s` : 'reused (it matches the eval sets and n)'}, ${index.ngrams.toLocaleString('en-US')} distinct n-grams\n`);
    // The items file of each attribute folder, before the tasks (which find it written and leave it alone).
    const folders = new Set(files.map((f) => attributeSetFolder(attributePathFor(f, o.name), o.name)));
    for (const folder of folders) await writeEvalItemsFile(resolve(cwd, folder), index.index);
    return filesPerTask(args, executor, files, ['rebuild']);
  },
  // Every file is marked complete by then, so the whole command only writes the attribute set's run manifests.
  finalArgv: (run) => rerunSkippingDone(run),
};
