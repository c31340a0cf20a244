// The selected document's provenance (URL, dump, WARC record, crawl date) when its metadata has them.
import type { DocumentDetail } from '../../../../shared/contract/index.js';
import { provenanceFields } from '../../lib/provenance.js';
import { CopyButton } from '../common/CopyButton.js';

export function Provenance({ detail }: { detail: DocumentDetail }) {
  const fields = provenanceFields(detail.metadata);
  if (fields.length === 0) return null;
  return (
    <dl className="provenance" data-testid="inspector-provenance">
      {fields.map((f) => (
        <div key={f.key} className="provenance-row">
          <dt>{f.label}</dt>
          {/* Shown, not linked: a click must not navigate the app's window to a page from a crawl. */}
          <dd data-testid={`provenance-${f.key}`} title={f.value}>
            {f.value}
            {f.url && <CopyButton text={f.value} what="URL" testId="provenance-copy-url" />}
          </dd>
        </div>
      ))}
    </dl>
  );
}
