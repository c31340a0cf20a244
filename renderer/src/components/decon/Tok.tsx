// A decon token figure: `≈` and the estimate note unless every document was counted by the index's tokenizer.
import type { DeconTokens } from '../../../../shared/contract/index.js';
import { fmtInt } from '../../lib/format.js';

/** A token figure: `≈` and the estimate note when not every document was counted by a tokenizer. */
export function Tok({ t, testId }: { t: DeconTokens; testId?: string }) {
  const est = t.kind === 'estimate';
  return (
    <span className={est ? 'fig estimate' : 'fig'} data-testid={testId} data-value={t.count} data-estimate={est} title={est ? 'estimate: ⌈UTF-8 bytes / 4⌉ per document' : 'exact: counted by the index tokenizer'}>
      {est ? '≈' : ''}
      {fmtInt(t.count)}
    </span>
  );
}
