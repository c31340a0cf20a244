// The documents table's search box: full-text search over the indexed texts, asked a moment after the last keystroke.
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

export function SearchBox() {
  const draft = useWorkbench((s) => s.documents.searchInput);
  const applied = useWorkbench((s) => s.documents.filter.search);
  const store = useWorkbenchApi();
  const value = draft ?? applied ?? '';
  return (
    <span className="search-box" title='full-text search over the documents: words, "a phrase", prefix*; combines with the other filters'>
      <input
        type="search"
        placeholder="search text…"
        value={value}
        onChange={(e) => store.getState().setSearchInput(e.target.value)}
        onKeyDown={(e) => {
          // Enter asks now instead of waiting for the pause.
          if (e.key === 'Enter') store.getState().setDocFilter({ search: e.currentTarget.value });
        }}
        data-testid="doc-search"
        data-applied={applied ?? ''}
        aria-label="search the documents' text"
      />
      {value !== '' && (
        <button className="chip-x" onClick={() => store.getState().setDocFilter({ search: undefined })} aria-label="clear the search" data-testid="doc-search-clear">
          ×
        </button>
      )}
    </span>
  );
}
