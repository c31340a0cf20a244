// A figure from the preview: formatted, with its raw value for tests, and marked `≈` when it was sampled.
import { fmtCompact, fmtInt } from '../../lib/format.js';

export function Fig({ value, exact, testId, compact = false, title }: { value: number; exact: boolean; testId?: string; compact?: boolean; title?: string }) {
  return (
    <span className={exact ? 'fig' : 'fig sampled'} data-testid={testId} data-value={value} data-exact={exact} title={title ?? (exact ? 'exact: every indexed document' : 'sampled estimate')}>
      {exact ? '' : '≈'}
      {compact ? fmtCompact(value) : fmtInt(value)}
    </span>
  );
}
