// Assembles an engine host on one endpoint: the workspace, its index engine, the job manager and the method handlers.
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { serveHost } from './dispatch.js';
import { createHandlers } from './handlers.js';
import { IndexService, type OpenEngine } from './index-service.js';
import { JobManager } from './jobs/manager.js';
import type { EntryPoint } from './launch-process.js';
import type { HostEndpoint } from './transport.js';

export interface HostOptions {
  workspace: string;
  endpoint: HostEndpoint;
  openEngine: OpenEngine;
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
  const index = new IndexService(root, opts.openEngine);
  let emit: ReturnType<typeof serveHost>['emit'] = () => undefined;
  const jobs = new JobManager({
    root,
    emit: (e, p) => emit(e, p),
    indexChanged: () => index.refresh(),
    ...(opts.restartReason !== undefined && { restartReason: opts.restartReason }),
    ...(opts.runnerEntry !== undefined && { runnerEntry: opts.runnerEntry }),
    ...(opts.cancelGraceMs !== undefined && { cancelGraceMs: opts.cancelGraceMs }),
  });
  const served = serveHost(opts.endpoint, createHandlers({ root, index, jobs }), { root, ...(opts.log && { log: opts.log }) });
  emit = served.emit;
  return {
    root,
    jobs,
    index,
    close: async () => {
      await jobs.shutdown();
      served.close();
      index.close();
    },
  };
}
