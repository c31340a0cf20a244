// Completion and hover content for the recipe editor, from the workspace's attribute catalogue.
import type { AttributeKeyInfo } from '../../../shared/contract/index.js';
import { fmtInt, fmtValue } from './format.js';

const KEY_CHAR = /[A-Za-z0-9_-]/;

/** The attribute-key-like token around a 1-based cursor column: its text and 1-based [start, end) columns. */
export function tokenAt(lineText: string, column: number): { word: string; startColumn: number; endColumn: number } {
  let s = Math.min(Math.max(column - 1, 0), lineText.length);
  let e = s;
  while (s > 0 && KEY_CHAR.test(lineText[s - 1] ?? '')) s--;
  while (e < lineText.length && KEY_CHAR.test(lineText[e] ?? '')) e++;
  return { word: lineText.slice(s, e), startColumn: s + 1, endColumn: e + 1 };
}

export interface Suggestion {
  label: string;
  kind: 'attribute' | 'tagger';
  detail: string;
  documentation: string;
}

/** Every attribute key, then every known tagger name once; the editor filters them by the typed prefix. */
export function suggestions(catalogue: readonly AttributeKeyInfo[]): Suggestion[] {
  const out: Suggestion[] = catalogue.map((a) => ({
    label: a.key,
    kind: 'attribute',
    detail: `${a.set} · ${a.kind} · ${fmtInt(a.docs)} docs`,
    documentation: hoverMarkdown(a),
  }));
  const taggers = new Map<string, string>();
  for (const a of catalogue) if (a.tagger && !taggers.has(a.tagger)) taggers.set(a.tagger, a.description ?? '');
  for (const [name, description] of taggers) out.push({ label: name, kind: 'tagger', detail: 'tagger', documentation: description });
  return out;
}

/** The distribution summary shown when hovering a key: where it comes from, coverage, range and quantiles. */
export function hoverMarkdown(a: AttributeKeyInfo): string {
  const lines = [`**${a.key}** — ${a.kind === 'spans' ? 'span scores' : 'document value'} in \`${a.set}\``];
  if (a.tagger) lines.push(`tagger \`${a.tagger}\`${a.description ? `: ${a.description}` : ''}`);
  const spans = a.kind === 'spans' ? `, ${fmtInt(a.spans)} spans` : '';
  lines.push(`${fmtInt(a.docs)} documents${spans}`);
  if (a.min !== null && a.max !== null) lines.push(`range ${fmtValue(a.min)} … ${fmtValue(a.max)}`);
  if (a.quantiles.length > 0) lines.push(a.quantiles.map((q) => `p${Math.round(q.p <= 1 ? q.p * 100 : q.p)} ${fmtValue(q.value)}`).join(' · '));
  return lines.join('\n\n');
}
