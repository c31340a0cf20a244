// Run page slice: the run shown under the Runs tab (log, manifest with its chain of parent runs, ledger search), and links followed.
import type { LocateQuery, LocateResult, RunManifestView, RunTokenLedger } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export type RunView = 'log' | 'manifest' | 'ledger' | 'tokens';
export type LedgerKey = 'id' | 'url' | 'textHash' | 'contains';

export interface LedgerSearchState {
  key: LedgerKey;
  text: string;
  /** The query `result` answers. */
  asked: LocateQuery | null;
  result: LocateResult | null;
  running: boolean;
  error: string | null;
}

export interface RunPageState {
  view: RunView;
  /** The run shown: an output folder of the selected job, or a parent run's manifest reached by a link. */
  path: string | null;
  manifest: RunManifestView | null;
  loading: boolean;
  error: string | null;
  /** Runs left by following parent links (for "back"). */
  trail: string[];
  ledger: LedgerSearchState;
  /** The shown mix output's token ledger (asked when the tokens view opens). */
  tokens: { result: RunTokenLedger | null; loading: boolean; error: string | null };
}

export interface RunPageSlice {
  runPage: RunPageState;
  /** Shows the run whose output folder (or manifest) is `path`; `follow`: reached from the page shown (back returns). */
  openRun(path: string, opts?: { follow?: boolean; view?: RunView }): Promise<void>;
  runBack(): void;
  setRunView(view: RunView): void;
  setLedgerInput(key: LedgerKey, text: string): void;
  /** Searches the shown run's ledger with the box's key and text. */
  searchLedger(): Promise<void>;
  /** The shown run's token ledger (`runs.ledger`): per source raw → filtered → sampled → seen. */
  loadRunTokens(): Promise<void>;
}

const NO_TOKENS: RunPageState['tokens'] = { result: null, loading: false, error: null };
const NO_SEARCH: LedgerSearchState = { key: 'id', text: '', asked: null, result: null, running: false, error: null };

export function ledgerQuery(key: LedgerKey, text: string): LocateQuery | null {
  const t = key === 'contains' ? text : text.trim();
  if (t === '') return null;
  return key === 'id' ? { id: t } : key === 'url' ? { url: t } : key === 'textHash' ? { textHash: t } : { contains: t };
}

export const createRunPageSlice: SliceCreator<RunPageSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'runPage');
  let seq = 0;
  let searchSeq = 0;
  let tokensSeq = 0;

  return {
    runPage: { view: 'log', path: null, manifest: null, loading: false, error: null, trail: [], ledger: NO_SEARCH, tokens: NO_TOKENS },

    async openRun(path, opts = {}) {
      const mine = ++seq;
      const r = get().runPage;
      const trail = opts.follow && r.path !== null ? [...r.trail, r.path] : opts.follow === undefined ? [] : r.trail;
      searchSeq++;
      tokensSeq++;
      patch({ path, trail, loading: true, error: null, manifest: null, ledger: { ...NO_SEARCH, key: r.ledger.key }, tokens: NO_TOKENS, ...(opts.view && { view: opts.view }) });
      if (get().runPage.view === 'tokens') void get().loadRunTokens();
      try {
        const manifest = await api.invoke('runs.manifest', { path });
        if (mine === seq) patch({ manifest, loading: false });
      } catch (e) {
        if (mine === seq) patch({ loading: false, error: errorText(e) });
      }
    },

    runBack() {
      const trail = [...get().runPage.trail];
      const prev = trail.pop();
      if (prev === undefined) return;
      patch({ trail });
      void get().openRun(prev, { follow: false });
    },

    setRunView(view) {
      patch({ view });
      if (view === 'tokens' && get().runPage.tokens.result === null) void get().loadRunTokens();
    },

    setLedgerInput(key, text) {
      patch({ ledger: { ...get().runPage.ledger, key, text } });
    },

    async searchLedger() {
      const { path, ledger } = get().runPage;
      const query = ledgerQuery(ledger.key, ledger.text);
      if (path === null || query === null) return;
      const mine = ++searchSeq;
      patch({ ledger: { ...ledger, asked: query, running: true, error: null } });
      try {
        const result = await api.invoke('runs.locate', { path, query, limit: 100 });
        if (mine === searchSeq) patch({ ledger: { ...get().runPage.ledger, result, running: false } });
      } catch (e) {
        if (mine === searchSeq) patch({ ledger: { ...get().runPage.ledger, result: null, running: false, error: errorText(e) } });
      }
    },

    async loadRunTokens() {
      const path = get().runPage.path;
      if (path === null) return;
      const mine = ++tokensSeq;
      patch({ tokens: { ...get().runPage.tokens, loading: true, error: null } });
      try {
        const result = await api.invoke('runs.ledger', { path });
        if (mine === tokensSeq) patch({ tokens: { result, loading: false, error: null } });
      } catch (e) {
        if (mine === tokensSeq) patch({ tokens: { result: null, loading: false, error: errorText(e) } });
      }
    },
  };
};
