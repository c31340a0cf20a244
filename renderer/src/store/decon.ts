// Decon slice: the contamination report of a decon attribute set (`decon.report`) and the eval items the inspected document overlaps (`decon.items`).
import type { DeconItemText, DeconReport, DocumentDetail } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { deconTargets, documentHits, type DeconTarget } from '../lib/decon.js';
import { patcher, type SliceCreator } from './types.js';

export interface DeconState {
  /** The decon set the report is of (the workspace's first when none was chosen). */
  target: DeconTarget | null;
  report: (DeconReport & { written: string[] }) | null;
  loading: boolean;
  error: string | null;
  /** Eval items of the inspected document (`docId`), per decon name with overlap spans. */
  docId: string | null;
  items: { name: string; set: string; items: DeconItemText[] }[];
  itemsError: string | null;
}

export interface DeconSlice {
  decon: DeconState;
  /** The decon sets the workspace's catalogue holds. */
  deconTargets(): DeconTarget[];
  /** Asks the report of `target` (default: the chosen or first set); `write` saves it beside the attributes. */
  loadDeconReport(target?: DeconTarget, write?: boolean): Promise<void>;
  /** Fetches the eval item texts a document's decon spans stand for (none asked when it has no decon spans). */
  loadDeconItems(detail: DocumentDetail): Promise<void>;
}

export const createDeconSlice: SliceCreator<DeconSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'decon');
  let reportSeq = 0;
  let itemsSeq = 0;
  return {
    decon: { target: null, report: null, loading: false, error: null, docId: null, items: [], itemsError: null },

    deconTargets: () => deconTargets(get().workspace.info?.attributes ?? []),

    async loadDeconReport(target, write = false) {
      const t = target ?? get().decon.target ?? get().deconTargets()[0] ?? null;
      const mine = ++reportSeq;
      if (t === null) {
        patch({ target: null, report: null, loading: false, error: 'no decon attributes in this workspace: run a decon job (Runs tab, or `assay decon -c` then `assay index`)' });
        return;
      }
      const same = get().decon.target?.name === t.name && get().decon.target?.set === t.set;
      patch({ target: t, loading: true, error: null, ...(same ? {} : { report: null }) });
      try {
        const report = await api.invoke('decon.report', { name: t.name, ...(t.set !== t.name && { set: t.set }), ...(write && { write }) });
        if (mine === reportSeq) patch({ report, loading: false });
      } catch (e) {
        if (mine === reportSeq) patch({ loading: false, error: errorText(e) });
      }
    },

    async loadDeconItems(detail) {
      const mine = ++itemsSeq;
      const hits = documentHits(detail).filter((h) => h.refs.length > 0);
      patch({ docId: detail.id, items: [], itemsError: null });
      if (hits.length === 0) return;
      try {
        const items = await Promise.all(hits.map(async (h) => ({ name: h.name, set: h.set, items: await api.invoke('decon.items', { file: detail.file, set: h.set, refs: h.refs.slice(0, 200) }) })));
        if (mine === itemsSeq) patch({ items });
      } catch (e) {
        if (mine === itemsSeq) patch({ itemsError: errorText(e) });
      }
    },
  };
};
