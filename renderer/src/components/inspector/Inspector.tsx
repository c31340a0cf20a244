// The inspector: the selected document's fate under the recipe, its text with attribute spans, and the redaction preview.
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { CopyButton } from '../common/CopyButton.js';
import { DeconMatches } from './DeconMatches.js';
import { Explanation } from './Explanation.js';
import { Provenance } from './Provenance.js';
import { RedactionPreview } from './RedactionPreview.js';
import { SpanText } from './SpanText.js';

export function Inspector() {
  const { id, detail, explain, loading, error, view } = useWorkbench((s) => s.inspector);
  const store = useWorkbenchApi();
  const s = () => store.getState();
  return (
    <section className="panel inspector" data-testid="inspector" data-doc-id={id ?? undefined}>
      <header className="panel-head">
        <h2>Inspector</h2>
        {id !== null && (
          <>
            <span className="spacer" />
            <nav className="seg">
              <button aria-pressed={view === 'spans'} onClick={() => s().setInspectorView('spans')} data-testid="inspector-view-spans">
                spans
              </button>
              <button aria-pressed={view === 'redaction'} onClick={() => s().setInspectorView('redaction')} data-testid="inspector-view-redaction">
                redaction
              </button>
            </nav>
            <button className="link" onClick={() => void s().selectDocument(null)} aria-label="close">
              ×
            </button>
          </>
        )}
      </header>
      {id !== null && (
        // The id on a line of its own, wrapped rather than cut, selectable and copyable.
        <div className="doc-ident">
          <span className="doc-id" title={id} data-testid="inspector-doc-id">
            {id}
          </span>
          <CopyButton text={id} what="document id" testId="inspector-copy-id" />
          {detail && (
            <span className="muted doc-where" title={detail.file}>
              {detail.source || '(no source)'} · {detail.file}:{detail.line}
            </span>
          )}
        </div>
      )}
      {id === null ? (
        <p className="muted pad">Select a document in the table to see its spans and why it is kept or dropped.</p>
      ) : (
        <div className="panel-body inspector-body">
          {error && <div className="error-box">{error}</div>}
          {detail && <Provenance detail={detail} />}
          {explain && <Explanation explain={explain} />}
          {loading && !detail && <p className="muted pad">loading…</p>}
          {view === 'spans' && detail && <DeconMatches detail={detail} />}
          {view === 'spans' ? detail && <SpanText detail={detail} /> : explain ? <RedactionPreview explain={explain} /> : <p className="muted pad">no explanation yet: the recipe has not previewed</p>}
        </div>
      )}
    </section>
  );
}
