// Before/after view of span replacement: where each replaced range lands in the output text.
import type { ExplainResult } from '../../../shared/contract/index.js';

export interface Piece {
  text: string;
  /** The replacing rule, for pieces that came from (after) or were removed by (before) a replacement. */
  rule?: number;
}

export interface RedactionView {
  before: Piece[];
  after: Piece[];
  /** False when rebuilding the output from the ranges does not give the host's `output` (then show it plain). */
  consistent: boolean;
}

/** Pieces of the original text with replaced ranges marked, and of the output with their replacements marked. */
export function redactionView(explain: Pick<ExplainResult, 'text' | 'output' | 'replaced'>): RedactionView {
  const { text } = explain;
  const ranges = [...explain.replaced].sort((a, b) => a.start - b.start);
  const before: Piece[] = [];
  const after: Piece[] = [];
  let at = 0;
  for (const r of ranges) {
    if (r.start < at || r.end > text.length) continue; // overlapping or out-of-range: the host's output stays authoritative
    if (r.start > at) {
      before.push({ text: text.slice(at, r.start) });
      after.push({ text: text.slice(at, r.start) });
    }
    before.push({ text: text.slice(r.start, r.end), rule: r.rule });
    if (r.replacement !== '') after.push({ text: r.replacement, rule: r.rule });
    at = r.end;
  }
  if (at < text.length) {
    before.push({ text: text.slice(at) });
    after.push({ text: text.slice(at) });
  }
  const rebuilt = after.map((p) => p.text).join('');
  const consistent = explain.output === undefined || rebuilt === explain.output;
  return { before, after: consistent ? after : [{ text: explain.output ?? '' }], consistent };
}
