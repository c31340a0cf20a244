// Chooses which attribute keys the document table shows as columns.
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

export function ColumnPicker() {
  const attributes = useWorkbench((s) => s.workspace.info?.attributes);
  const columns = useWorkbench((s) => s.documents.columns);
  const store = useWorkbenchApi();
  const toggle = (key: string) => {
    const next = columns.includes(key) ? columns.filter((c) => c !== key) : [...columns, key];
    store.getState().setColumns(next);
  };
  return (
    <details className="column-picker" data-testid="column-picker">
      <summary>columns ({columns.length})</summary>
      <div className="menu">
        {(attributes ?? []).map((a) => (
          <label key={a.key}>
            <input type="checkbox" checked={columns.includes(a.key)} onChange={() => toggle(a.key)} data-testid={`column-toggle-${a.key}`} /> {a.key}
          </label>
        ))}
        {(attributes ?? []).length === 0 && <span className="muted">no attributes indexed</span>}
      </div>
    </details>
  );
}
