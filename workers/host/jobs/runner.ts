// Entry of a job process: runs one job through the engine library and reports progress, log lines and its outcome over IPC.
import { toErrorPayload } from '../errors.js';
import { executePlan } from './execute.js';
import { runnerChannel } from './launch-channel.js';
import { buildIndexForJob } from './index-builder.js';
import type { StageProgress } from './meter.js';
import { checkPlanPaths, planJob } from './plan.js';
import type { RunnerMessage, RunnerRequest } from './protocol.js';
import { runOnSlurm } from './slurm-run.js';

const controller = new AbortController();

// Process IPC when a Node host forked this; a MessagePort from main when this is an Electron utility process.
const channel = runnerChannel();
const send = (m: RunnerMessage): Promise<void> => channel.send(m);

async function run(req: Extract<RunnerRequest, { type: 'start' }>): Promise<void> {
  const log = (line: string): void => void send({ type: 'log', line });
  const ctx = { root: req.root, signal: controller.signal, onProgress: (p: StageProgress) => void send({ type: 'progress', report: { done: p.done, total: p.total, unit: p.unit, etaSec: p.etaSec ?? null } }), log };
  try {
    // Dolma resolves a config's relative paths against the working directory; for the app that is the workspace.
    process.chdir(req.root);
    const plan = planJob(req.kind, req.configText, req.configPath);
    // Checked again here, just before the engine opens anything: the workspace may have changed since the host accepted the job.
    await checkPlanPaths(plan, req.root);
    const r = req.executor
      ? await runOnSlurm({ kind: req.kind, root: req.root, configPath: req.configPath, executor: req.executor }, plan, { ...ctx, onTasks: (slurm) => void send({ type: 'tasks', slurm }) })
      : await executePlan(plan, ctx, buildIndexForJob);
    let indexedDocs = r.indexedDocs;
    if (r.reindex) {
      log('updating the attribute index with the new attributes');
      indexedDocs = (await buildIndexForJob(req.root, ctx)).docs;
    }
    await send({ type: 'done', summary: r.summary, outputs: r.outputs, ...(indexedDocs !== undefined && { indexedDocs }) });
  } catch (e) {
    await send({ type: 'error', error: toErrorPayload(e, req.root) });
  }
  await channel.close();
  process.exit(0);
}

channel.onMessage((m: RunnerRequest) => {
  if (m.type === 'start') void run(m);
  else if (m.type === 'cancel') controller.abort();
});
// The host went away (crash or kill): stop the engine so it removes its temporary outputs, then leave.
channel.onDisconnect(() => {
  controller.abort();
  setTimeout(() => process.exit(1), 10_000).unref();
});
