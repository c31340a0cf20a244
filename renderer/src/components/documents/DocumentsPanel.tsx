// The documents pane: search and filters over the index (fate under the recipe, source, attribute ranges), the paged table.
import { fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { DocumentFilters } from './DocumentFilters.js';
import { DocumentTable } from './DocumentTable.js';

export function DocumentsPanel() {
  const total = useWorkbench((s) => s.documents.total);
  const error = useWorkbench((s) => s.documents.error);
  const code = useWorkbench((s) => s.documents.errorPayload?.code);
  const search = useWorkbench((s) => s.documents.filter.search);
  const store = useWorkbenchApi();
  return (
    <section className="panel documents" data-testid="documents-panel">
      <header className="panel-head">
        <h2>Documents</h2>
        <span className="muted" data-testid="documents-total" data-value={total ?? undefined}>
          {total === null ? '…' : `${fmtInt(total)} match${search ? ` “${search.trim()}”` : ''}`}
        </span>
      </header>
      <DocumentFilters />
      {error &&
        (search ? (
          // With a search on, the likely cause is the search itself (no search table, bad syntax): say so, offer the way out.
          <div className="error-box" data-testid="search-error" data-code={code}>
            <b>Search failed:</b> {error}{' '}
            <button className="link" onClick={() => store.getState().setDocFilter({ search: undefined })}>
              clear the search
            </button>
          </div>
        ) : (
          <div className="error-box">{error}</div>
        ))}
      <DocumentTable />
    </section>
  );
}
