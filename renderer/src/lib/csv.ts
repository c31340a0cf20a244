// CSV text in the renderer: RFC 4180 quoting, and the preview's per-rule table as a CSV file.
import type { Count, PreviewResult } from '../../../shared/contract/index.js';
import { ruleLabel } from './ruleLabel.js';

/** One CSV field: quoted when it holds a comma, quote, CR or LF (quotes doubled). */
export function csvField(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields: readonly (string | number | boolean | null | undefined)[]): string {
  return fields.map(csvField).join(',');
}

const BUCKETS = ['alone', 'exclusive', 'sequential'] as const;

export const RULE_CSV_HEADER = [
  'rule', 'label', 'kind', 'stream', 'expression', 'source',
  ...BUCKETS.flatMap((b) => [`${b}_docs`, `${b}_tokens`]),
  'tokens_kind',
] as const;

/**
 * The rule table as the preview pane shows it: per rule one row over every source (`source` empty), then one
 * row per source. `tokens_kind` says whether the token columns are estimates.
 */
export function ruleTableCsv(result: PreviewResult): string {
  const kind = result.tokens?.kind ?? 'estimate';
  const lines = [csvLine(RULE_CSV_HEADER)];
  const zero: Count = { docs: 0, tokens: 0 };
  for (const r of result.rules) {
    const row = (source: string, pick: (b: (typeof BUCKETS)[number]) => Count) =>
      csvLine([r.index, ruleLabel(r), r.kind, r.stream, r.expression, source, ...BUCKETS.flatMap((b) => [pick(b).docs, pick(b).tokens]), kind]);
    lines.push(row('', (b) => r[b]));
    const sources = [...new Set(BUCKETS.flatMap((b) => Object.keys(r[b].bySource)))].sort();
    for (const src of sources) lines.push(row(src, (b) => r[b].bySource[src] ?? zero));
  }
  return `${lines.join('\r\n')}\r\n`;
}
