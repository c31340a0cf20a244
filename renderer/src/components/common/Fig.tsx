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
  /** A sampled preview's confidence interval of this figure, at `level`. */
  ci?: [number, number];
  level?: number;
}

export function Fig({ value, exact, tokens, testId, compact = false, title, ci, level = 0.95 }: FigProps) {
  const isTokens = tokens !== undefined;
  const estimate = !exact || (isTokens && isEstimate(tokens.kind));
  const interval = ci ? `${Math.round(level * 100)}% CI ${fmtInt(ci[0])}–${fmtInt(ci[1])}` : null;
  const base = isTokens ? tokenTitle(fmtInt(value), tokens) : exact ? 'exact: every indexed document' : 'sampled estimate';
  const hover = interval ? `${base} (${interval})` : base;
  return (
    <span
      className={estimate ? 'fig estimate' : 'fig'}
      data-testid={testId}
      data-value={value}
      data-exact={exact}
      data-estimate={estimate}
      {...(ci && { 'data-ci': `${ci[0]}-${ci[1]}` })}
      title={title ? `${title}${isTokens ? ` — ${hover}` : ''}` : hover}
    >
      {estimate ? '≈' : ''}
      {compact ? fmtCompact(value) : fmtInt(value)}
    </span>
  );
}
