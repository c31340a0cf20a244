// `assay ledger` output: the per-source table (raw → filtered → sampled → seen), its CSV, and the labels for estimated tokens.
import type { LedgerStageName, SourceTokenLedger, StageFigures, TokenLedgerResult } from '../../../shared/contract/mixplan.js';
import type { RunTokenLedger } from '../../../shared/contract/run-ledger.js';

export const STAGES: readonly LedgerStageName[] = ['raw', 'filtered', 'sampled', 'seen'];

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const pct = (x: number, of: number): string => (of > 0 ? `${((100 * x) / of).toFixed(1)}%` : '-');
const rate = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(4).replace(/0+$/, ''));

/** Whether one stage's tokens are counted: the run ledger says per stage, a predicted ledger for all of them at once. */
function stageExact(r: TokenLedgerResult, stage: LedgerStageName): boolean {
  const per = (r as Partial<RunTokenLedger>).tokenSources;
  return per ? per[stage].exact : r.tokens.kind === 'exact';
}

/** The line that says how tokens were counted (printed above every table). */
export function tokensLine(r: TokenLedgerResult): string {
  if (r.tokens.kind === 'exact') return `tokens: exact, counted by ${r.tokens.tokenizer ?? 'the tokenizer'} (${r.tokens.note})`;
  if (r.tokens.kind === 'partial') return `tokens: partly exact${r.tokens.tokenizer ? ` (${r.tokens.tokenizer})` : ''}; ≈ marks estimates — ${r.tokens.note}`;
  return `tokens: estimates (≈) — ${r.tokens.note}`;
}

function stageRow(label: string, stage: LedgerStageName, f: StageFigures, raw: StageFigures, exact: boolean, extra = ''): string {
  const tok = `${exact ? '' : '≈'}${n(f.tokens)}`;
  return `${label.padEnd(16)}${stage.padEnd(10)}${n(f.docs).padStart(12)}${n(f.bytes).padStart(17)}${tok.padStart(16)}${(stage === 'raw' ? '' : pct(f.tokens, raw.tokens)).padStart(9)}${extra}`;
}

function sourceBlock(r: TokenLedgerResult, s: SourceTokenLedger): string[] {
  return STAGES.map((stage, i) => {
    const extra = stage === 'sampled' ? `   rate ${rate(s.sampleRate)}` : stage === 'seen' ? `   × repeat ${rate(s.repeat)} × epochs ${rate(r.epochs)}` : '';
    return stageRow(i === 0 ? s.source || '(none)' : '', stage, s[stage], s.raw, stageExact(r, stage), extra);
  });
}

/** The ledger as a table: one block per source, the totals, then each source's share of what training sees. */
export function formatLedger(r: TokenLedgerResult): string {
  const lines = [tokensLine(r), `epochs ${rate(r.epochs)} (seen = sampled × repeat × epochs)`, ''];
  lines.push(`${'source'.padEnd(16)}${'stage'.padEnd(10)}${'docs'.padStart(12)}${'UTF-8 bytes'.padStart(17)}${'tokens'.padStart(16)}${'of raw'.padStart(9)}`);
  for (const s of r.sources) lines.push(...sourceBlock(r, s));
  STAGES.forEach((stage, i) => lines.push(stageRow(i === 0 ? 'total' : '', stage, r.total[stage], r.total.raw, stageExact(r, stage))));
  lines.push('', `${'source'.padEnd(16)}${'sample rate'.padStart(12)}${'repeat'.padStart(8)}${'seen tokens'.padStart(16)}${'share'.padStart(9)}`);
  const seenMark = stageExact(r, 'seen') ? '' : '≈';
  for (const s of r.sources) {
    lines.push(`${(s.source || '(none)').padEnd(16)}${rate(s.sampleRate).padStart(12)}${rate(s.repeat).padStart(8)}${`${seenMark}${n(s.seen.tokens)}`.padStart(16)}${pct(s.share, 1).padStart(9)}`);
  }
  return lines.join('\n') + '\n';
}

/** Where a finished run's figures come from, and its caveats (after the table of `assay ledger OUTPUT_DIR`). */
export function formatRunNotes(r: RunTokenLedger): string {
  const lines = ['', `${r.stage} output ${r.output}`];
  for (const stage of STAGES) lines.push(`  ${stage.padEnd(9)} ${r.tokenSources[stage].exact ? 'exact' : 'estimate'}: ${r.tokenSources[stage].from}`);
  lines.push('  UTF-8 bytes are of the input texts (span replacement changes what is written); document counts are exact.');
  for (const note of r.notes) lines.push(`  note: ${note}`);
  return lines.join('\n') + '\n';
}

const csvCell = (v: string | number): string => (typeof v === 'number' ? String(v) : /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** One row per source and stage (no totals: they would count twice when summed). */
export function ledgerCsv(r: TokenLedgerResult): string {
  const rows = [['source', 'stage', 'docs', 'bytes', 'tokens', 'tokens_exact', 'sample_rate', 'repeat', 'epochs', 'share']];
  for (const s of r.sources) {
    for (const stage of STAGES) {
      const f = s[stage];
      rows.push([s.source, stage, String(f.docs), String(f.bytes), String(f.tokens), String(stageExact(r, stage)), String(s.sampleRate), String(s.repeat), String(r.epochs), String(s.share)]);
    }
  }
  return rows.map((row) => row.map((c, i) => (i === 0 ? csvCell(c) : c)).join(',')).join('\n') + '\n';
}
