// Runs slice: launching jobs, their live progress and logs, cancel, and the history of runs.
import type { JobInfo, JobKind, JobLog, JobProgress, JobStart } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { isDirty } from './recipe.js';
import { patcher, type SliceCreator } from './types.js';

/** Log lines kept per job; older ones scroll off. */
export const MAX_LOG_LINES = 5000;

export interface RunsState {
  /** Newest first. */
  jobs: JobInfo[];
  progress: Record<string, JobProgress>;
  logs: Record<string, string[]>;
  /** Job whose log is shown. */
  selected: string | null;
  /** The job this app started last. */
  latest: string | null;
  starting: boolean;
  error: string | null;
}

export interface RunsSlice {
  runs: RunsState;
  refreshJobs(): Promise<void>;
  startJob(start: JobStart): Promise<JobInfo | null>;
  /** Saves the open recipe when it has unsaved edits (a run reads the file), then runs it. */
  runRecipe(kind: JobKind): Promise<JobInfo | null>;
  cancelJob(jobId: string): Promise<void>;
  selectJob(jobId: string | null): void;
  onJobState(info: JobInfo): void;
  onJobProgress(p: JobProgress): void;
  onJobLog(l: JobLog): void;
}

const byStartDesc = (a: JobInfo, b: JobInfo): number => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0);

export const createRunsSlice: SliceCreator<RunsSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'runs');

  const upsert = (info: JobInfo): void => {
    const r = get().runs;
    const jobs = [info, ...r.jobs.filter((j) => j.jobId !== info.jobId)].sort(byStartDesc);
    const progress = info.progress ? { ...r.progress, [info.jobId]: info.progress } : r.progress;
    patch({ jobs, progress });
  };

  return {
    runs: { jobs: [], progress: {}, logs: {}, selected: null, latest: null, starting: false, error: null },

    async refreshJobs() {
      try {
        const list = await api.invoke('jobs.list', {});
        const progress = { ...get().runs.progress };
        for (const j of list) if (j.progress) progress[j.jobId] = j.progress;
        patch({ jobs: [...list].sort(byStartDesc), progress, error: null });
      } catch (e) {
        patch({ error: errorText(e) });
      }
    },

    async startJob(start) {
      patch({ starting: true, error: null });
      try {
        const info = await api.invoke('jobs.start', start);
        upsert(info);
        patch({ starting: false, latest: info.jobId, selected: info.jobId });
        return info;
      } catch (e) {
        patch({ starting: false, error: `cannot start ${start.kind}: ${errorText(e)}` });
        return null;
      }
    },

    async runRecipe(kind) {
      const path = get().recipe.path;
      if (!path) {
        patch({ error: 'open or save a recipe first' });
        return null;
      }
      if (isDirty(get()) && !(await get().saveRecipe())) {
        patch({ error: `not started: ${get().recipe.error ?? 'the recipe could not be saved'}` });
        return null;
      }
      return get().startJob({ kind, configPath: path });
    },

    async cancelJob(jobId) {
      try {
        upsert(await api.invoke('jobs.cancel', { jobId }));
      } catch (e) {
        patch({ error: `cannot cancel: ${errorText(e)}` });
      }
    },

    selectJob: (selected) => patch({ selected }),

    onJobState(info) {
      const before = get().runs.jobs.find((j) => j.jobId === info.jobId)?.state;
      upsert(info);
      // A finished run may have written outputs or attribute files the workspace lists.
      if (info.state !== 'running' && before !== info.state) void get().refreshWorkspace();
    },

    onJobProgress(p) {
      patch({ progress: { ...get().runs.progress, [p.jobId]: p } });
    },

    onJobLog(l) {
      const logs = get().runs.logs;
      const lines = [...(logs[l.jobId] ?? []), l.line];
      patch({ logs: { ...logs, [l.jobId]: lines.length > MAX_LOG_LINES ? lines.slice(-MAX_LOG_LINES) : lines } });
    },
  };
};
