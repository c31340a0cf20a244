// Where the Runs tab starts tag / dedupe / minhash / mix / tokens / decon (and the Sources dialog its imports and extractions): on this machine or as a Slurm array job, with the Slurm options (remembered per workspace).
import { useEffect } from 'react';
import { slurmCapable, type SlurmOptions } from '../../store/executor.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

type TextKey = 'partition' | 'mem' | 'time' | 'qos' | 'account' | 'logging_dir' | 'env_command';
type IntKey = 'tasks' | 'cpus_per_task' | 'max_concurrent';

const INTS: { key: IntKey; label: string; help: string }[] = [
  { key: 'tasks', label: 'tasks', help: 'array tasks (empty: one per input file; dedupe: 2 hash partitions)' },
  { key: 'cpus_per_task', label: 'CPUs/task', help: 'sbatch --cpus-per-task' },
  { key: 'max_concurrent', label: 'max at once', help: '--array=…%K: most tasks running at once (empty: no cap)' },
];
const TEXTS: { key: TextKey; label: string; help: string; width?: number }[] = [
  { key: 'partition', label: 'partition', help: 'sbatch --partition (empty: the cluster default)' },
  { key: 'mem', label: 'mem', help: 'sbatch --mem per task, e.g. 4G' },
  { key: 'time', label: 'time', help: 'sbatch --time, e.g. 2:00:00' },
  { key: 'qos', label: 'QoS', help: 'sbatch --qos' },
  { key: 'account', label: 'account', help: 'sbatch --account' },
  { key: 'logging_dir', label: 'logging dir', help: 'completions, logs and scripts, inside the workspace (empty: .assay/slurm/<kind>-<config hash>; the same run again submits only unfinished tasks)', width: 16 },
  { key: 'env_command', label: 'env setup', help: 'a shell line each task runs first, e.g. module load nodejs/20', width: 16 },
];

export function ExecutorPicker() {
  const kind = useWorkbench((s) => s.runs.kind);
  const settings = useWorkbench((s) => s.executor.settings);
  const loaded = useWorkbench((s) => s.executor.loaded);
  const error = useWorkbench((s) => s.executor.error);
  const store = useWorkbenchApi();
  const s = () => store.getState();
  useEffect(() => {
    if (!loaded) void store.getState().loadExecutor();
  }, [loaded, store]);
  const slurm = settings.slurm;
  const setInt = (key: IntKey, raw: string) => {
    const n = Number(raw);
    s().setSlurmOption(key, raw.trim() === '' || !Number.isInteger(n) || n < 1 ? undefined : n);
  };
  const setText = (key: TextKey, raw: string) => s().setSlurmOption(key, (raw.trim() === '' ? undefined : raw) as SlurmOptions[TextKey]);

  return (
    <div className="toolbar executor" data-testid="executor" data-type={settings.type}>
      <label title="where Start runs the job; remembered for this workspace">
        run on{' '}
        <select value={settings.type} onChange={(e) => s().setExecutorType(e.target.value as 'local' | 'slurm')} data-testid="run-executor" aria-label="executor">
          <option value="local">Local</option>
          <option value="slurm">Slurm</option>
        </select>
      </label>
      {settings.type === 'slurm' &&
        INTS.map((f) => (
          <label key={f.key} title={f.help}>
            {f.label}{' '}
            <input type="number" min={1} size={4} className="num" value={slurm[f.key] ?? ''} onChange={(e) => setInt(f.key, e.target.value)} data-testid={`slurm-${f.key}`} />
          </label>
        ))}
      {settings.type === 'slurm' &&
        TEXTS.map((f) => (
          <label key={f.key} title={f.help}>
            {f.label}{' '}
            <input type="text" size={f.width ?? 8} value={slurm[f.key] ?? ''} onChange={(e) => setText(f.key, e.target.value)} data-testid={`slurm-${f.key}`} />
          </label>
        ))}
      {settings.type === 'slurm' && !slurmCapable(kind) && <span className="muted">({kind} runs locally; Slurm runs tag, dedupe, minhash, mix and tokens, and Run mix)</span>}
      {error && <span className="err">{error}</span>}
    </div>
  );
}
