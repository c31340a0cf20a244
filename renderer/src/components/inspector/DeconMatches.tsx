// Beside a document's decon spans: the eval items it overlaps (`<name>__decon__hits`), each with its text from the eval items file.
import { useWorkbench } from '../../store/index.js';

export function DeconMatches({ docId }: { docId: string }) {
  const { docId: of, items, itemsError } = useWorkbench((s) => s.decon);
  if (of !== docId || (items.length === 0 && itemsError === null)) return null;
  return (
    <aside className="decon-matches" data-testid="decon-matches">
      <h3>eval items this document overlaps</h3>
      {itemsError && <div className="error-box">{itemsError}</div>}
      {items.map((g) => (
        <div key={`${g.set}/${g.name}`}>
          <p className="muted">
            {g.name}__decon__overlap (attributes/{g.set})
          </p>
          <ul>
            {g.items.map((it) => (
              <li key={it.ref} data-testid={`decon-match-${it.ref}`}>
                <code>{it.ref}</code>
                {it.text !== null ? <blockquote className="decon-text">{it.text}</blockquote> : <span className="muted"> (text not in the eval items file)</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </aside>
  );
}
