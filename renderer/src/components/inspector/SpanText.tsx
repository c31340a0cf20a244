// The document text with attribute spans highlighted per set (toggle sets), hover showing key and score.
import { useMemo, useState } from 'react';
import type { DocumentDetail, DocumentSpan } from '../../../../shared/contract/index.js';
import { fmtValue } from '../../lib/format.js';
import { segmentText, setColour } from '../../lib/spans.js';
import { useWorkbench } from '../../store/index.js';

const describe = (spans: readonly DocumentSpan[]) => spans.map((s) => `${s.key}: ${fmtValue(s.score)}`).join('\n');

export function SpanText({ detail }: { detail: DocumentDetail }) {
  const hidden = useWorkbench((s) => s.inspector.hiddenSets);
  const toggle = useWorkbench((s) => s.toggleSpanSet);
  const [hover, setHover] = useState<string | null>(null);
  const sets = useMemo(() => [...new Set(detail.spans.map((s) => s.set))].sort(), [detail]);
  // A document-level value is stored as one span over the whole text; it is listed under the values, not painted.
  const shown = useMemo(() => detail.spans.filter((s) => !hidden[s.set] && !(s.start <= 0 && s.end >= detail.text.length && s.key in detail.values)), [detail, hidden]);
  const segments = useMemo(() => segmentText(detail.text.length, shown), [detail, shown]);
  const values = Object.entries(detail.values);

  return (
    <div className="span-view">
      <div className="set-toggles">
        {sets.map((set) => (
          <label key={set} className="set-toggle" style={{ borderColor: setColour(sets, set) }} data-testid={`span-set-${set}`}>
            <input type="checkbox" checked={!hidden[set]} onChange={() => toggle(set)} />
            <span className="swatch" style={{ background: setColour(sets, set) }} /> {set} ({detail.spans.filter((s) => s.set === set).length})
          </label>
        ))}
        {sets.length === 0 && <span className="muted">no spans in this document</span>}
        <span className="hover-info" data-testid="span-hover">
          {hover ?? ''}
        </span>
      </div>
      <div className="doc-text" data-testid="inspector-text">
        {segments.map((seg) => {
          const text = detail.text.slice(seg.start, seg.end);
          if (seg.spans.length === 0) return <span key={seg.start}>{text}</span>;
          const top = seg.spans[seg.spans.length - 1] as DocumentSpan;
          const info = describe(seg.spans);
          return (
            <mark
              key={seg.start}
              className={seg.spans.length > 1 ? 'span overlap' : 'span'}
              style={{ background: `${setColour(sets, top.set)}55`, borderBottomColor: setColour(sets, top.set) }}
              title={info}
              onMouseEnter={() => setHover(info.replace(/\n/g, ' · '))}
              onMouseLeave={() => setHover(null)}
              data-keys={seg.spans.map((s) => s.key).join(' ')}
            >
              {text}
            </mark>
          );
        })}
      </div>
      {values.length > 0 && (
        <details className="doc-values">
          <summary>document values ({values.length})</summary>
          <table className="grid compact">
            <tbody>
              {values.map(([k, v]) => (
                <tr key={k}>
                  <td>{k}</td>
                  <td className="num">{fmtValue(v)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
