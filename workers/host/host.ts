// Assembles an engine host on one endpoint: the workspace, its index engine, the job manager and the method handlers.
import { samplePolicy } from './preview-protocol.js';
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { serveHost } from './dispatch.js';
import { createHandlers } from './handlers.js';
import { allowedEnv, jobEnv, redactEnv } from './app-env.js';
import { inProcessBackend, IndexService, workerBackend, type OpenEngine } from './index-service.js';
import { JobManager } from './jobs/manager.js';
import { FileWatcher } from './watch.js';
import type { EntryPoint } from './launch-process.js';
import type { PreviewThreadOptions } from './preview-thread.js';
import type { HostEndpoint } from './transport.js';

export interface HostOptions {
  workspace: string;
  endpoint: HostEndpoint;
  /** An engine on this thread (tests bring their own); by default the engine runs in a preview worker thread. */
  openEngine?: OpenEngine;
  /** The preview worker's cancellation grace, call budget and test hook (see PreviewThreadOptions). */
  preview?: Pick<PreviewThreadOptions, 'graceMs' | 'maxCallMs' | 'delayMs' | 'sample'>;
  /** The environment allowed names are taken from (default process.env; the host process passes what it took from it). */
  env?: NodeJS.ProcessEnv;
  restartReason?: string;
  runnerEntry?: EntryPoint;
  cancelGraceMs?: number;
  log?: (message: string) => void;
}

export interface Host {
  root: string;
  jobs: JobManager;
  index: IndexService;
  /** Cancels running jobs, closes the index and detaches from the endpoint. */
  close(): Promise<void>;
}

/** The workspace as one canonical absolute path, so containment checks compare like with like. */
export function workspaceRoot(dir: string): string {
  const abs = resolve(dir);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new Error(`workspace '${dir}' does not exist`);
  }
  if (!st.isDirectory()) throw new Error(`workspace '${dir}' is not a directory`);
  return realpathSync(abs);
}

export function createHost(opts: HostOptions): Host {
  const root = workspaceRoot(opts.workspace);
  const source = opts.env ?? process.env;
  const env = (): Record<string, string> => allowedEnv(root, source);
  // Large indexes preview on a sample (the policy is read from the host's own environment, not the workspace's).
  const sample = samplePolicy(source);
  const backend = opts.openEngine
    ? inProcessBackend(root, opts.openEngine)
    : workerBackend({ root, env, ...(sample && { sample }), ...opts.preview, ...(opts.log && { log: opts.log }) });
  const index = new IndexService(root, backend);
  let emit: ReturnType<typeof serveHost>['emit'] = () => undefined;
  const jobs = new JobManager({
    root,
    emit: (e, p) => emit(e, p),
    indexChanged: () => index.refresh(),
    jobEnv: () => jobEnv(root, source),
    ...(opts.restartReason !== undefined && { restartReason: opts.restartReason }),
    ...(opts.runnerEntry !== undefined && { runnerEntry: opts.runnerEntry }),
    ...(opts.cancelGraceMs !== undefined && { cancelGraceMs: opts.cancelGraceMs }),
  });
  const watcher = new FileWatcher(root, (p) => emit('file.changed', p));
  const served = serveHost(opts.endpoint, createHandlers({ root, index, jobs, watcher, env }), { root, redact: (t) => redactEnv(t, env()), ...(opts.log && { log: opts.log }) });
  emit = served.emit;
  return {
    root,
    jobs,
    index,
    close: async () => {
      await jobs.shutdown();
      watcher.close();
      served.close();
      await index.close();
    },
  };
}
