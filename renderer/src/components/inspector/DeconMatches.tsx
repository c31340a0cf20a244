// Beside each decon span of the document (`<name>__decon__overlap`): the eval item it overlaps, with the item's text (from `__decon__hits`).
import { useMemo } from 'react';
import type { DeconItemText, DocumentDetail } from '../../../../shared/contract/index.js';
import { spanItems } from '../../lib/decon.js';
import { useWorkbench } from '../../store/index.js';

interface Pair {
  start: number;
  end: number;
  text: string;
  items: DeconItemText[];
  exact: boolean;
}

function ItemText({ it }: { it: DeconItemText }) {
  return (
    <div className="decon-item" data-testid={`decon-match-${it.ref}`}>
      <code>{it.ref}</code>
      {it.text !== null ? <blockquote className="decon-text">{it.text}</blockquote> : <span className="muted"> (text not in the eval items file)</span>}
    </div>
  );
}

export function DeconMatches({ detail }: { detail: DocumentDetail }) {
  const { docId, items, itemsError } = useWorkbench((s) => s.decon);
  const groups = useMemo(
    () =>
      items.map((g) => {
        const spans = detail.spans.filter((s) => s.set === g.set && s.key === `${g.name}__decon__overlap`).sort((a, b) => a.start - b.start);
        const pairs: Pair[] = spans.map((s) => {
          const text = detail.text.slice(s.start, s.end);
          return { start: s.start, end: s.end, text, ...spanItems(text, g.items) };
        });
        const paired = new Set(pairs.filter((p) => p.exact).flatMap((p) => p.items.map((i) => i.ref)));
        return { ...g, pairs, unpaired: g.items.filter((i) => !paired.has(i.ref)) };
      }),
    [detail, items],
  );
  if (docId !== detail.id || (items.length === 0 && itemsError === null)) return null;
  return (
    <aside className="decon-matches" data-testid="decon-matches">
      <h3>eval items this document overlaps</h3>
      {itemsError && <div className="error-box">{itemsError}</div>}
      {groups.map((g) => (
        <div key={`${g.set}/${g.name}`}>
          <p className="muted">
            {g.name}__decon__overlap (attributes/{g.set}): {g.pairs.length} span{g.pairs.length === 1 ? '' : 's'}, {g.items.length} item{g.items.length === 1 ? '' : 's'}
          </p>
          {g.pairs.map((p) => (
            <div key={p.start} className="decon-pair" data-testid={`decon-pair-${p.start}`} data-refs={p.items.map((i) => i.ref).join(' ')}>
              <blockquote className="decon-doc" title={`document, characters ${p.start}–${p.end}`}>
                {p.text}
              </blockquote>
              <div>
                {!p.exact && <span className="muted">one of:</span>}
                {p.items.map((it) => (
                  <ItemText key={it.ref} it={it} />
                ))}
              </div>
            </div>
          ))}
          {g.pairs.length > 0 && g.unpaired.length > 0 && g.unpaired.length < g.items.length && (
            <details>
              <summary className="muted">also hit ({g.unpaired.length})</summary>
              {g.unpaired.map((it) => (
                <ItemText key={it.ref} it={it} />
              ))}
            </details>
          )}
        </div>
      ))}
    </aside>
  );
}
