// A figure from the preview: formatted, with its raw value for tests, marked `≈` when sampled or an estimate.
import type { PreviewResult } from '../../../../shared/contract/index.js';
import { fmtCompact, fmtInt } from '../../lib/format.js';
import { isEstimate, tokenTitle } from '../../lib/tokens.js';

export interface FigProps {
  value: number;
  /** Counted over every indexed document (not sampled). */
  exact: boolean;
  /** A token figure: how the preview obtained its tokens (estimates carry `≈` and the note on hover). */
  tokens?: PreviewResult['tokens'];
  testId?: string;
  compact?: boolean;
  title?: string;
}

export function Fig({ value, exact, tokens, testId, compact = false, title }: FigProps) {
  const isTokens = tokens !== undefined;
  const estimate = !exact || (isTokens && isEstimate(tokens.kind));
  const hover = isTokens ? tokenTitle(fmtInt(value), tokens) : exact ? 'exact: every indexed document' : 'sampled estimate';
  return (
    <span
      className={estimate ? 'fig estimate' : 'fig'}
      data-testid={testId}
      data-value={value}
      data-exact={exact}
      data-estimate={estimate}
      title={title ? `${title}${isTokens ? ` — ${hover}` : ''}` : hover}
    >
      {estimate ? '≈' : ''}
      {compact ? fmtCompact(value) : fmtInt(value)}
    </span>
  );
}
