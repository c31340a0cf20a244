// The contamination report as the terminal table `assay decon report` prints.
import type { DeconReport, DeconTokens } from '../../../../shared/contract/decon.js';

const n = (x: number): string => x.toLocaleString('en-US');
const tok = (t: DeconTokens): string => (t.kind === 'exact' ? n(t.count) : `≈${n(t.count)}`);
const pct = (f: number | null): string => (f === null ? '?' : `${(f * 100).toFixed(f > 0 && f < 0.001 ? 3 : 1)} %`);
const clip = (s: string, w: number): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > w ? `${one.slice(0, w - 1)}…` : one;
};

export function formatDeconReport(r: DeconReport, written: readonly string[] = []): string {
  const exact = r.sets.every((s) => s.tokens.kind === 'exact' || s.docs === 0) && r.sources.every((s) => s.totalTokens.kind === 'exact');
  const tk = exact ? 'tokens' : 'est. tokens';
  const lines = [
    `decon report: ${r.name} (attributes/${r.attributeSet}), ${n(r.files.length)} documents files, ${n(r.docs)} documents, ${n(r.contaminated)} contaminated, ${n(r.ngrams)} overlapping n-grams`,
    '',
    `${'eval set'.padEnd(20)}${'items'.padStart(9)}${'hit'.padStart(8)}${'fraction'.padStart(10)}${'docs'.padStart(9)}${tk.padStart(15)}`,
  ];
  for (const s of r.sets) {
    lines.push(`${s.set.padEnd(20)}${(s.items === null ? '?' : n(s.items)).padStart(9)}${n(s.hitItems).padStart(8)}${pct(s.fraction).padStart(10)}${n(s.docs).padStart(9)}${tok(s.tokens).padStart(15)}`);
  }
  lines.push('', `per source: documents (${tk}) holding an item of the set, of all read`);
  for (const s of r.sets) {
    const rows = s.bySource.filter((b) => b.docs > 0).map((b) => `${b.source || '(no source)'} ${n(b.docs)} of ${n(b.totalDocs)} (${tok(b.tokens)} of ${tok(b.totalTokens)})`);
    lines.push(`  ${s.set}: ${rows.length ? rows.join('; ') : 'none'}`);
  }
  lines.push(`  any set: ${r.sources.map((b) => `${b.source || '(no source)'} ${n(b.docs)} of ${n(b.totalDocs)} (${tok(b.tokens)} of ${tok(b.totalTokens)})`).join('; ') || 'no documents'}`);
  const top = r.sets.filter((s) => s.top.length > 0);
  if (top.length) lines.push('', 'top contaminated items (by documents)');
  for (const s of top) {
    for (const t of s.top) {
      const more = t.docs > t.documents.length ? `, … ${n(t.docs - t.documents.length)} more` : '';
      lines.push(`  ${t.ref}  ${n(t.docs)} doc${t.docs === 1 ? '' : 's'}${t.text === null ? '' : `  "${clip(t.text, 60)}"`}`, `      ${t.documents.join(', ')}${more}`);
    }
  }
  if (!exact) lines.push('', 'est. tokens: ⌈UTF-8 bytes / 4⌉ per document (exact with --index ROOT after assay index --tokenizer)');
  for (const note of r.notes) lines.push(`note: ${note}`);
  if (r.itemsFile) lines.push(`eval items: ${r.itemsFile}`);
  for (const w of written) lines.push(`written: ${w}`);
  return lines.join('\n') + '\n';
}
