// The document text with attribute spans highlighted per set (span-level sets on, document-wide ones off), search matches marked.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { DocumentDetail, DocumentSpan } from '../../../../shared/contract/index.js';
import { fmtValue } from '../../lib/format.js';
import { groupShown, markSegments, setColour, shownSpans, spanGroups } from '../../lib/spans.js';
import { useWorkbench } from '../../store/index.js';

const describe = (spans: readonly DocumentSpan[]) => spans.map((s) => `${s.key}: ${fmtValue(s.score)}`).join('\n');

export function SpanText({ detail }: { detail: DocumentDetail }) {
  const choices = useWorkbench((s) => s.inspector.spanChoices);
  const toggle = useWorkbench((s) => s.toggleSpanGroup);
  const [hover, setHover] = useState<string | null>(null);
  const groups = useMemo(() => spanGroups(detail.text, detail.spans), [detail]);
  const sets = useMemo(() => [...new Set(detail.spans.map((s) => s.set))].sort(), [detail]);
  const shown = useMemo(() => shownSpans(detail.text, detail.spans, choices), [detail, choices]);
  const segments = useMemo(() => markSegments(detail.text.length, shown, detail.matches ?? []), [detail, shown]);
  const values = Object.entries(detail.values);
  const matches = detail.matches?.length ?? 0;
  const textEl = useRef<HTMLDivElement>(null);
  // A search match may be far down a long text: bring the first one into view.
  useEffect(() => {
    if (matches > 0) textEl.current?.querySelector('mark.search-match')?.scrollIntoView({ block: 'center' });
  }, [detail, matches]);

  return (
    <div className="span-view">
      <div className="set-toggles">
        {groups.map((g) => {
          const on = groupShown(choices, g);
          return (
            <label
              key={g.id}
              className={`set-toggle${g.docWide ? ' doc-wide' : ''}`}
              style={{ borderColor: setColour(sets, g.set) }}
              title={`${g.docWide ? 'document-wide: these spans cover the whole text (off unless chosen)' : 'spans over parts of the text'}\n${g.keys.join('\n')}`}
              data-testid={`span-set-${g.set}${g.docWide ? '-doc' : ''}`}
              data-shown={on}
            >
              <input type="checkbox" checked={on} onChange={() => toggle(g.id, on)} />
              <span className="swatch" style={{ background: setColour(sets, g.set) }} /> {g.set}
              {g.docWide ? ' · whole text' : ''} ({g.spans})
            </label>
          );
        })}
        {groups.length === 0 && <span className="muted">no spans in this document</span>}
        {detail.matches !== undefined && (
          <span className="search-count" data-testid="search-match-count" data-value={matches}>
            {matches} search match{matches === 1 ? '' : 'es'}
          </span>
        )}
        <span className="hover-info" data-testid="span-hover">
          {hover ?? ''}
        </span>
      </div>
      <div className="doc-text" data-testid="inspector-text" ref={textEl}>
        {segments.map((seg) => {
          const text = detail.text.slice(seg.start, seg.end);
          const inner =
            seg.spans.length === 0 ? (
              text
            ) : (
              <mark
                className={seg.spans.length > 1 ? 'span overlap' : 'span'}
                style={{ background: `${setColour(sets, (seg.spans[seg.spans.length - 1] as DocumentSpan).set)}55`, borderBottomColor: setColour(sets, (seg.spans[seg.spans.length - 1] as DocumentSpan).set) }}
                title={describe(seg.spans)}
                onMouseEnter={() => setHover(describe(seg.spans).replace(/\n/g, ' · '))}
                onMouseLeave={() => setHover(null)}
                data-keys={seg.spans.map((s) => s.key).join(' ')}
              >
                {text}
              </mark>
            );
          return seg.match ? (
            <mark key={seg.start} className="search-match" data-testid="search-match">
              {inner}
            </mark>
          ) : (
            <span key={seg.start}>{inner}</span>
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
