// Runs slice: choosing a job and its config, checking the open recipe before it is saved and run, progress, logs, history.
import type { JobInfo, JobKind, JobLog, JobProgress, JobStart, JobTasks, WorkspaceInfo } from '../../../shared/contract/index.js';
import { errorText, toErrorPayload } from '../api/errors.js';
import { refusalOf, type CheckAnswers, type Refusal } from '../lib/runCheck.js';
import { patcher, type SliceCreator, type WorkbenchState } from './types.js';

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
  /** The job kind chosen in the Runs tab. */
  kind: JobKind;
  /** The config chosen for it; null (or one not of that kind) means the default (see selectedConfig). */
  config: string | null;
  /** Why the last run of the open recipe was refused, for the text it was refused for (the editor marks it). */
  refused: (Refusal & { text: string }) | null;
}

export interface RunsSlice {
  runs: RunsState;
  refreshJobs(): Promise<void>;
  /** Starts a job; on the chosen executor (Slurm, for the kinds it runs) unless `start` names one. */
  startJob(start: JobStart): Promise<JobInfo | null>;
  /**
   * Runs the open recipe: checks the editor text first (job check and lint) and refuses, with nothing written,
   * when it has an error; only a recipe that passes is saved (when modified) and then run.
   */
  runRecipe(kind: JobKind): Promise<JobInfo | null>;
  setRunKind(kind: JobKind): void;
  setRunConfig(path: string | null): void;
  /** Starts the chosen kind with the chosen config (the open recipe goes through runRecipe's check). */
  startSelected(): Promise<JobInfo | null>;
  cancelJob(jobId: string): Promise<void>;
  selectJob(jobId: string | null): void;
  onJobState(info: JobInfo): void;
  onJobProgress(p: JobProgress): void;
  onJobLog(l: JobLog): void;
  /** A Slurm job's per-task states (polled by the host while it runs). */
  onJobTasks(t: JobTasks): void;
}

/** The workspace's configs that can run as `kind` (recognised by schema), with a not-yet-listed open recipe for mix. */
export function configsFor(info: WorkspaceInfo | null, openPath: string | null, kind: JobKind): string[] {
  if (kind === 'index') return [];
  const configs = info?.configs ?? [];
  const list = configs.filter((c) => c.kinds.includes(kind)).map((c) => c.path);
  // A recipe just saved under a new name may not be listed until the workspace refreshes.
  if (kind === 'mix' && openPath !== null && !configs.some((c) => c.path === openPath)) list.unshift(openPath);
  return list;
}

/** The config a start would use: the chosen one, else the open recipe when it is of that kind, else the first. */
export function selectedConfig(s: WorkbenchState): string | null {
  const list = configsFor(s.workspace.info, s.recipe.path, s.runs.kind);
  const { config } = s.runs;
  if (config !== null && list.includes(config)) return config;
  if (s.recipe.path !== null && list.includes(s.recipe.path)) return s.recipe.path;
  return list[0] ?? null;
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

  const check = async (kind: JobKind, text: string): Promise<Refusal | null> => {
    // Checked with the executor it will start on, so a Slurm refusal (kind, logging dir) also saves nothing.
    const executor = get().executorFor(kind);
    const [c, l] = await Promise.allSettled([api.invoke('jobs.check', { kind, configText: text, ...(executor && { executor }) }), api.invoke('preview.lint', { recipeText: text })]);
    const answers: CheckAnswers = {
      check: c.status === 'fulfilled' ? { ok: true, value: c.value } : { ok: false, error: toErrorPayload(c.reason) },
      lint: l.status === 'fulfilled' ? l.value : null,
    };
    return refusalOf(text, answers);
  };

  return {
    runs: { jobs: [], progress: {}, logs: {}, selected: null, latest: null, starting: false, error: null, kind: 'mix', config: null, refused: null },

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

    async startJob(req) {
      patch({ starting: true, error: null });
      const executor = req.executor ?? get().executorFor(req.kind);
      const start = executor ? { ...req, executor } : req;
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
      // The text checked is the text saved and run, even if typing goes on meanwhile.
      const text = get().recipe.text;
      patch({ starting: true, error: null, refused: null });
      const refusal = await check(kind, text);
      if (get().recipe.path !== path) {
        patch({ starting: false, error: `not started: another recipe was opened while ${path} was being checked` });
        return null;
      }
      if (refusal) {
        const where = refusal.line !== undefined ? `line ${refusal.line}: ` : '';
        patch({ starting: false, refused: { ...refusal, text }, error: `not started, nothing saved: ${where}${refusal.message}` });
        if (refusal.line !== undefined && get().recipe.text === text) get().revealLine(refusal.line);
        return null;
      }
      // A run reads the file, and the file is the truth: the checked text is written first when it differs.
      if (text !== get().recipe.savedText && !(await get().saveRecipe(path, text))) {
        patch({ starting: false, error: `not started: ${get().recipe.error ?? 'the recipe could not be saved'}` });
        return null;
      }
      return get().startJob({ kind, configPath: path });
    },

    setRunKind: (kind) => patch({ kind, config: null }),
    setRunConfig: (config) => patch({ config }),

    startSelected() {
      const { kind } = get().runs;
      if (kind === 'index') return get().startJob({ kind });
      const configPath = selectedConfig(get());
      if (configPath === null) {
        patch({ error: `no ${kind} config in the workspace: create one from a template` });
        return Promise.resolve(null);
      }
      if (configPath === get().recipe.path) return get().runRecipe(kind);
      return get().startJob({ kind, configPath });
    },

    async cancelJob(jobId) {
      try {
        upsert(await api.invoke('jobs.cancel', { jobId }));
      } catch (e) {
        patch({ error: `cannot cancel: ${errorText(e)}` });
      }
    },

    selectJob(selected) {
      patch({ selected });
      // A finished run's page opens on its manifest (its first output folder); a running one on its log.
      const job = get().runs.jobs.find((j) => j.jobId === selected);
      if (job?.state === 'done' && job.outputs[0] !== undefined) void get().openRun(job.outputs[0], { view: get().runPage.view === 'log' ? 'manifest' : get().runPage.view });
      else get().setRunView('log');
    },

    onJobState(info) {
      const before = get().runs.jobs.find((j) => j.jobId === info.jobId)?.state;
      upsert(info);
      // A finished run may have written outputs or attribute files the workspace lists.
      if (info.state !== 'running' && before !== info.state) void get().refreshWorkspace();
      if (info.kind === 'preview') void get().exactJobEnded(info);
    },

    onJobProgress(p) {
      patch({ progress: { ...get().runs.progress, [p.jobId]: p } });
    },

    onJobTasks({ jobId, slurm }) {
      const r = get().runs;
      const job = r.jobs.find((j) => j.jobId === jobId);
      // A job the list does not hold yet (started elsewhere) arrives with its next state event.
      if (job) patch({ jobs: r.jobs.map((j) => (j.jobId === jobId ? { ...j, slurm } : j)) });
    },

    onJobLog(l) {
      const logs = get().runs.logs;
      const lines = [...(logs[l.jobId] ?? []), l.line];
      patch({ logs: { ...logs, [l.jobId]: lines.length > MAX_LOG_LINES ? lines.slice(-MAX_LOG_LINES) : lines } });
    },
  };
};
