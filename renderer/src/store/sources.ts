// Sources slice: the Parquet and WARC files in the workspace, the ones chosen, and the import or warc job launched from the Sources dialog.
import type { JobInfo, SourceFile } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export interface SourcesState {
  files: SourceFile[] | null;
  loading: boolean;
  error: string | null;
  /** Workspace-relative paths chosen for import. */
  chosen: string[];
  textField: string;
  /** Empty: the id column is `id` when the files have one, else `<file>-<row>`. */
  idField: string;
  /** Empty: the folder name of each file. */
  source: string;
  /** The import job this dialog started last. */
  jobId: string | null;
}

export interface SourcesSlice {
  sources: SourcesState;
  loadSources(): Promise<void>;
  toggleSource(path: string): void;
  setSourceOptions(p: Partial<Pick<SourcesState, 'textField' | 'idField' | 'source'>>): void;
  /** Starts an import job of the chosen Parquet files into the workspace (documents/…), indexed when it ends. */
  startImport(): Promise<JobInfo | null>;
  /** Starts a warc job (main-text extraction) of the chosen WARC files into the workspace, indexed when it ends. */
  startWarc(): Promise<JobInfo | null>;
}

/** The import job's config (JSON is YAML, so no quoting rules to get wrong): the flags of `assay import` as keys. */
export function importConfigText(s: SourcesState): string {
  const cfg: Record<string, unknown> = { documents: chosenOf(s, 'parquet'), destination: '.' };
  if (s.textField.trim() && s.textField.trim() !== 'text') cfg.text_field = s.textField.trim();
  if (s.idField.trim()) cfg.id_field = s.idField.trim();
  if (s.source.trim()) cfg.source = s.source.trim();
  return JSON.stringify(cfg, null, 2) + '\n';
}

/** The chosen files of one kind, in the order chosen. */
export function chosenOf(s: SourcesState, kind: SourceFile['kind']): string[] {
  return s.chosen.filter((p) => s.files?.find((f) => f.path === p)?.kind === kind);
}

/** The warc job's config: `assay warc -c`'s keys, the documents written into the workspace itself. */
export function warcConfigText(s: SourcesState): string {
  const cfg: Record<string, unknown> = { documents: chosenOf(s, 'warc'), destination: '.' };
  if (s.source.trim()) cfg.source_name = s.source.trim();
  return JSON.stringify(cfg, null, 2) + '\n';
}

/** Chosen Parquet files that lack the text column: the dialog names them before the host would refuse the job. */
export function missingTextColumn(s: SourcesState): string[] {
  const field = s.textField.trim() || 'text';
  return (s.files ?? []).filter((f) => s.chosen.includes(f.path) && f.columns !== undefined && !f.columns.includes(field)).map((f) => f.path);
}

export const createSourcesSlice: SliceCreator<SourcesSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'sources');
  const start = async (kind: SourceFile['kind']): Promise<JobInfo | null> => {
    const s = get().sources;
    if (chosenOf(s, kind).length === 0) {
      patch({ error: `choose at least one ${kind === 'parquet' ? 'Parquet' : 'WARC'} file` });
      return null;
    }
    patch({ error: null });
    const info = await get().startJob(kind === 'parquet' ? { kind: 'import', configText: importConfigText(s) } : { kind: 'warc', configText: warcConfigText(s) });
    if (info === null) patch({ error: get().runs.error });
    else patch({ jobId: info.jobId });
    return info;
  };
  return {
    sources: { files: null, loading: false, error: null, chosen: [], textField: 'text', idField: '', source: '', jobId: null },

    async loadSources() {
      patch({ loading: true, error: null });
      try {
        const files = await api.invoke('sources.list', {});
        const chosen = get().sources.chosen.filter((p) => files.some((f) => f.path === p));
        patch({ files, chosen, loading: false });
      } catch (e) {
        patch({ loading: false, error: errorText(e) });
      }
    },

    toggleSource(path) {
      const { chosen } = get().sources;
      patch({ chosen: chosen.includes(path) ? chosen.filter((p) => p !== path) : [...chosen, path] });
    },

    setSourceOptions(p) {
      patch(p);
    },

    startImport: () => start('parquet'),
    startWarc: () => start('warc'),
  };
};
