// The attribute catalogue grouped by attribute set: coverage and range per key, the tagger's description; a click shows the histogram.
import type { AttributeKeyInfo } from '../../../../shared/contract/index.js';
import { fmtInt, fmtValue } from '../../lib/format.js';
import { useWorkbenchApi } from '../../store/index.js';

function groupBySet(attributes: readonly AttributeKeyInfo[]): [string, AttributeKeyInfo[]][] {
  const m = new Map<string, AttributeKeyInfo[]>();
  for (const a of attributes) m.set(a.set, [...(m.get(a.set) ?? []), a]);
  return [...m];
}

export function AttributeCatalogue({ attributes }: { attributes: readonly AttributeKeyInfo[] }) {
  const store = useWorkbenchApi();
  const show = (key: string) => {
    store.getState().selectAttribute(key);
    store.getState().setBottomTab('distributions');
  };
  return (
    <details open>
      <summary>Attributes ({attributes.length})</summary>
      <div className="catalogue" data-testid="attribute-catalogue">
        {groupBySet(attributes).map(([set, keys]) => (
          <div key={set} className="cat-set">
            <div className="cat-set-name">{set}</div>
            {keys.map((a) => (
              <button key={a.key} className="cat-key" onClick={() => show(a.key)} title={[a.tagger && `tagger ${a.tagger}`, a.description].filter(Boolean).join(': ')} data-testid={`attribute-${a.key}`}>
                <span className="key">{a.key.startsWith(`${set}__`) ? a.key.slice(set.length + 2) : a.key}</span>
                <span className="muted">
                  {a.kind === 'spans' ? `${fmtInt(a.spans)} spans` : `${fmtInt(a.docs)} docs`}
                  {a.min !== null && a.max !== null ? ` · ${fmtValue(a.min)}…${fmtValue(a.max)}` : ''}
                </span>
                {a.description && <span className="desc">{a.description}</span>}
              </button>
            ))}
          </div>
        ))}
      </div>
    </details>
  );
}
