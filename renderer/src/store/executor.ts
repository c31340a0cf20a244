// Executor slice: where the Runs tab starts jobs (local or Slurm, with the Slurm options), remembered per workspace by the host.
import { SLURM_KINDS, type ExecutorConfig, type ExecutorSettings, type JobKind } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export type SlurmOptions = ExecutorSettings['slurm'];

export interface ExecutorState {
  settings: ExecutorSettings;
  /** The workspace's saved choice has been read (until then the defaults show). */
  loaded: boolean;
  error: string | null;
}

export interface ExecutorSlice {
  executor: ExecutorState;
  loadExecutor(): Promise<void>;
  setExecutorType(type: ExecutorSettings['type']): void;
  /** One Slurm option; undefined clears it (Slurm's or Assay's default applies). */
  setSlurmOption<K extends keyof SlurmOptions>(key: K, value: SlurmOptions[K] | undefined): void;
  /** What a start of `kind` carries: the Slurm executor when chosen and the engine can split that kind, else nothing (local). */
  executorFor(kind: JobKind): ExecutorConfig | undefined;
}

export const DEFAULT_EXECUTOR: ExecutorSettings = { type: 'local', slurm: { cpus_per_task: 1, sbatch_args: [] } };

/** Saved this long after the last change, so typing a partition name is one write. */
const SAVE_DELAY_MS = 400;

export const slurmCapable = (kind: JobKind): boolean => (SLURM_KINDS as readonly string[]).includes(kind);

export const createExecutorSlice: SliceCreator<ExecutorSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'executor');
  let timer: ReturnType<typeof setTimeout> | null = null;

  const save = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      api.invoke('executor.set', get().executor.settings).then(
        () => patch({ error: null }),
        (e: unknown) => patch({ error: `the executor settings were not saved: ${errorText(e)}` }),
      );
    }, SAVE_DELAY_MS);
  };
  const change = (settings: ExecutorSettings): void => {
    patch({ settings });
    save();
  };

  return {
    executor: { settings: DEFAULT_EXECUTOR, loaded: false, error: null },

    async loadExecutor() {
      try {
        patch({ settings: await api.invoke('executor.get', {}), loaded: true, error: null });
      } catch (e) {
        patch({ loaded: true, error: `the executor settings could not be read: ${errorText(e)}` });
      }
    },

    setExecutorType: (type) => change({ ...get().executor.settings, type }),

    setSlurmOption(key, value) {
      const slurm = { ...get().executor.settings.slurm };
      if (value === undefined) delete slurm[key];
      else slurm[key] = value;
      change({ ...get().executor.settings, slurm });
    },

    executorFor(kind) {
      const s = get().executor.settings;
      return s.type === 'slurm' && slurmCapable(kind) ? { ...s.slurm, type: 'slurm' } : undefined;
    },
  };
};
