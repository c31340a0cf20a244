// The documents pane: filters over the index (fate under the recipe, source, attribute ranges) and the paged table.
import { fmtInt } from '../../lib/format.js';
import { useWorkbench } from '../../store/index.js';
import { DocumentFilters } from './DocumentFilters.js';
import { DocumentTable } from './DocumentTable.js';

export function DocumentsPanel() {
  const total = useWorkbench((s) => s.documents.total);
  const error = useWorkbench((s) => s.documents.error);
  return (
    <section className="panel documents" data-testid="documents-panel">
      <header className="panel-head">
        <h2>Documents</h2>
        <span className="muted" data-testid="documents-total" data-value={total ?? undefined}>
          {total === null ? '…' : `${fmtInt(total)} match`}
        </span>
      </header>
      <DocumentFilters />
      {error && <div className="error-box">{error}</div>}
      <DocumentTable />
    </section>
  );
}
