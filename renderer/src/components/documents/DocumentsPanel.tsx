// The documents pane: search and filters over the index (fate under the recipe, source, attribute ranges), the paged table.
import { fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { DocumentFilters } from './DocumentFilters.js';
import { DocumentTable } from './DocumentTable.js';

export function DocumentsPanel() {
  const total = useWorkbench((s) => s.documents.total);
  const error = useWorkbench((s) => s.documents.error);
  const payload = useWorkbench((s) => s.documents.errorPayload);
  const search = useWorkbench((s) => s.documents.filter.search);
  return (
    <section className="panel documents" data-testid="documents-panel">
      <header className="panel-head">
        <h2>Documents</h2>
        <span className="muted" data-testid="documents-total" data-value={total ?? undefined}>
          {total === null ? '…' : `${fmtInt(total)} match${search ? ` “${search.trim()}”` : ''}`}
        </span>
      </header>
      <DocumentFilters />
      {error && (search ? <SearchError message={error} noTable={payload?.field === 'search' && /search table/.test(payload.message)} code={payload?.code} /> : <div className="error-box">{error}</div>)}
      <DocumentTable />
    </section>
  );
}

/**
 * With a search on, the likely cause is the search itself. Without a search table (an index built with --no-search,
 * or by an older Assay) the host says how to build it; the index job here does just that.
 */
function SearchError({ message, noTable, code }: { message: string; noTable: boolean; code: string | undefined }) {
  const store = useWorkbenchApi();
  const build = () => {
    void store.getState().startJob({ kind: 'index' });
    store.getState().setBottomTab('runs');
  };
  return (
    <div className="error-box" data-testid="search-error" data-code={code} data-no-table={noTable}>
      <b>{noTable ? 'Search needs the search table:' : 'Search failed:'}</b> {message}{' '}
      {noTable && (
        <button className="link" onClick={build} data-testid="search-build" title="run an index job: it indexes the texts for search after the attributes (unchanged files are skipped)">
          build it now
        </button>
      )}
      <button className="link" onClick={() => store.getState().setDocFilter({ search: undefined })} data-testid="search-error-clear">
        clear the search
      </button>
    </div>
  );
}
