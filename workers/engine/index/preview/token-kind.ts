// What the preview's token figures are: exact tokenizer counts, estimates, or a mix of both — and why.
import type { PreviewResult } from '../../../../shared/contract/preview.js';
import type { IndexData } from '../store/data.js';
import type { StreamAnalysis } from './analyze.js';
import type { Bitset } from './bitset.js';

const ESTIMATE = 'estimated tokens (⌈UTF-8 bytes / 4⌉): no tokenizer count in the index';
const n = (x: number): string => x.toLocaleString('en-US');

/**
 * `docs`: every document the figures cover (the streams' documents); `replaced`: kept documents whose text span
 * replacement may change. Their counts are of the input text, which is not what `assay tokens` writes for the
 * output, so figures that include them are marked 'partial' rather than passed off as exact.
 */
export function tokenFigures(data: IndexData, docs: Bitset, replaced: number): PreviewResult['tokens'] {
  const t = data.tokenizer;
  const total = docs.count();
  const missing = docs.and(data.uncounted).count();
  if (t === null || (missing === total && total > 0)) return { kind: 'estimate', note: t === null ? ESTIMATE : `estimated tokens (⌈UTF-8 bytes / 4⌉): no document here has a ${t.name} count yet (run \`assay index --tokenizer ${t.name}\`)` };
  if (missing === 0 && replaced === 0) return { kind: 'exact', tokenizer: t.name, note: `exact ${t.name} token counts, EOS ${t.eos} included (as \`assay tokens\` writes them)` };
  // A sample's own counts, said as such (the figures around them are scaled to the index).
  const of = data.sample === null ? '' : ' of the sample';
  const why = [
    ...(missing > 0 ? [`${n(missing)} of ${n(total)} documents${of} have no ${t.name} count and are estimated (⌈UTF-8 bytes / 4⌉)`] : []),
    ...(replaced > 0 ? [`${n(replaced)} kept document(s)${of} have spans replaced: their figures are of the input text`] : []),
  ];
  return { kind: 'partial', tokenizer: t.name, note: `${t.name} token counts, except: ${why.join('; ')}` };
}

/** Kept documents a replacer selects spans in, over all streams (their output text may differ from the input). */
export function replacedKept(analyses: readonly StreamAnalysis[]): number {
  let n = 0;
  for (const a of analyses) if (a.spans !== null) n += a.spans.touched.and(a.kept).count();
  return n;
}
