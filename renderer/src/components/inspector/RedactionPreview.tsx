// Redaction preview: the text before and after span replacement, replaced ranges marked on both sides.
import { useMemo } from 'react';
import type { ExplainResult } from '../../../../shared/contract/index.js';
import { redactionView, type Piece } from '../../lib/redaction.js';

function Pieces({ pieces, className }: { pieces: Piece[]; className: string }) {
  return (
    <>
      {pieces.map((p, i) =>
        p.rule === undefined ? (
          <span key={i}>{p.text}</span>
        ) : (
          <mark key={i} className={className} title={`span replacement, rule ${p.rule}`}>
            {p.text}
          </mark>
        ),
      )}
    </>
  );
}

export function RedactionPreview({ explain }: { explain: ExplainResult }) {
  const view = useMemo(() => redactionView(explain), [explain]);
  if (explain.fate !== 'kept') return <p className="muted pad">This document is {explain.fate}: the mixer writes no output for it.</p>;
  return (
    <div className="redaction">
      <p className="muted">
        {explain.replaced.length === 0 ? 'No span replacement touches this document: the output is the text unchanged.' : `${explain.replaced.length} range${explain.replaced.length > 1 ? 's' : ''} replaced.`}
        {!view.consistent && ' (the ranges do not rebuild the output; showing the output as the mixer writes it)'}
      </p>
      <div className="redaction-cols">
        <div>
          <h3>before</h3>
          <div className="doc-text" data-testid="redaction-before">
            <Pieces pieces={view.before} className="removed" />
          </div>
        </div>
        <div>
          <h3>after</h3>
          <div className="doc-text" data-testid="redaction-after">
            <Pieces pieces={view.after} className="inserted" />
          </div>
        </div>
      </div>
    </div>
  );
}
