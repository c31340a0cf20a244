// The Sources dialog: Parquet files imported and WARC files extracted into Dolma documents by a job (here or on Slurm), with its progress and cancel.
import { useEffect, useRef, useState } from 'react';
import type { SourceFile } from '../../../../shared/contract/index.js';
import { fmtBytes, fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { chosenOf, missingTextColumn } from '../../store/sources.js';

export function SourcesButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button className="link" onClick={() => setOpen(true)} data-testid="sources-open" title="start this workspace from Parquet or WARC files: import or extract them as documents">
        sources…
      </button>
      {open && <SourcesDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function SourceRow({ f, chosen }: { f: SourceFile; chosen: boolean }) {
  const store = useWorkbenchApi();
  const usable = f.problem === undefined;
  return (
    <li className={usable ? '' : 'muted'} data-testid="source-file" data-path={f.path}>
      <label>
        <input type="checkbox" checked={chosen} disabled={!usable} onChange={() => store.getState().toggleSource(f.path)} data-testid="source-choose" />
        <code>{f.path}</code> <span className="muted">· {fmtBytes(f.bytes)}</span>
        {f.rows !== undefined && <span className="muted"> · {fmtInt(f.rows)} rows</span>}
      </label>
      {f.columns && <div className="muted small">columns: {f.columns.join(', ')}</div>}
      {f.problem && <div className="err small">{f.problem}</div>}
      {f.kind === 'warc' && <div className="muted small">WARC: HTML responses → main text (`assay warc`)</div>}
    </li>
  );
}

function SourcesDialog({ onClose }: { onClose(): void }) {
  const store = useWorkbenchApi();
  const src = useWorkbench((s) => s.sources);
  const job = useWorkbench((s) => s.runs.jobs.find((j) => j.jobId === s.sources.jobId) ?? null);
  const progress = useWorkbench((s) => (s.sources.jobId ? s.runs.progress[s.sources.jobId] : undefined));
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
    void store.getState().loadSources();
  }, [store]);

  const missing = missingTextColumn(src);
  const [parquet, warc] = [chosenOf(src, 'parquet'), chosenOf(src, 'warc')];
  // Imports and extractions go where the Runs tab sends jobs: said here, since the choice is made there.
  const onSlurm = useWorkbench((st) => st.executorFor('warc') !== undefined);
  const running = job?.state === 'running';
  const pct = progress && progress.total > 0 ? Math.min(100, Math.round((100 * progress.done) / progress.total)) : null;
  return (
    <dialog ref={dialog} className="settings-dialog sources-dialog" onClose={onClose} data-testid="sources-dialog">
      <h2>Sources</h2>
      <p className="muted">
        Parquet files in this workspace (FineWeb shards, Hugging Face datasets) become Dolma documents under <code>documents/</code>: the text column is the
        text, every other column is kept in <code>metadata</code>. WARC files become one document per HTML page (its main text, with the URL and record
        id in <code>metadata</code>). The workspace is indexed when the job ends; where a recipe reads attribute sets, tag the new documents (Runs → tag)
        before it previews them.
      </p>
      {src.loading && <p className="muted">looking for Parquet and WARC files…</p>}
      {src.files?.length === 0 && <p className="muted" data-testid="sources-none">No Parquet or WARC files in this workspace: copy some into it (outside documents/), then reopen.</p>}
      <ul className="sources-list">{src.files?.map((f) => <SourceRow key={f.path} f={f} chosen={src.chosen.includes(f.path)} />)}</ul>
      <div className="sources-options">
        <label>
          text column <input value={src.textField} onChange={(e) => store.getState().setSourceOptions({ textField: e.target.value })} data-testid="sources-text-field" />
        </label>
        <label>
          id column <input value={src.idField} placeholder="id" onChange={(e) => store.getState().setSourceOptions({ idField: e.target.value })} data-testid="sources-id-field" />
        </label>
        <label>
          source <input value={src.source} placeholder="Parquet: its folder name · WARC: warc" onChange={(e) => store.getState().setSourceOptions({ source: e.target.value })} data-testid="sources-source" />
        </label>
      </div>
      {missing.length > 0 && <div className="err">no column '{src.textField || 'text'}' in {missing.join(', ')}</div>}
      {src.error && <div className="err" data-testid="sources-error">{src.error}</div>}
      {job && (
        <div className="sources-job" data-testid="sources-job" data-kind={job.kind} data-state={job.state}>
          {running ? `${job.kind === 'warc' ? 'extracting' : 'importing'}… ${pct !== null ? `${pct} %` : ''}${progress?.eta !== undefined ? ` · ${Math.ceil(progress.eta)} s left` : ''}` : job.state}
          {job.summary && <span className="muted"> · {job.summary}</span>}
          {job.error && <div className="err">{job.error}</div>}
          {running && (
            <button type="button" onClick={() => void store.getState().cancelJob(job.jobId)} data-testid="sources-cancel">
              Cancel
            </button>
          )}
        </div>
      )}
      <div className="dialog-actions">
        <span className="muted" data-testid="sources-executor" data-slurm={onSlurm} title="where the Runs tab's 'run on' choice sends jobs">
          {onSlurm ? 'runs on Slurm (chosen in the Runs tab)' : 'runs on this machine'}
        </span>
        <button type="button" onClick={onClose} data-testid="sources-close">
          Close
        </button>
        <button type="button" className="primary" disabled={running || warc.length === 0} onClick={() => void store.getState().startWarc()} data-testid="sources-warc">
          Extract {warc.length > 0 ? `${warc.length} WARC file(s)` : 'WARC'}
        </button>
        <button type="button" className="primary" disabled={running || parquet.length === 0 || missing.length > 0} onClick={() => void store.getState().startImport()} data-testid="sources-import">
          Import {parquet.length > 0 ? `${parquet.length} Parquet file(s)` : 'Parquet'}
        </button>
      </div>
    </dialog>
  );
}
