// The token ledger table: per source tokens raw → filtered → sampled → seen, sample rate, repeat and share; a row opens its loss per rule.
import { Fragment } from 'react';
import type { SourceTokenLedger, StageFigures, TokenLedgerResult } from '../../../../shared/contract/index.js';
import { fmtInt, fmtPct } from '../../lib/format.js';
import { sourceName, STAGES } from '../../lib/ledger.js';
import { tokenHeading } from '../../lib/tokens.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { Fig } from '../common/Fig.js';

const rate = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(3));

type Stage = (typeof STAGES)[number];
type Tokens = TokenLedgerResult['tokens'];

/** A stage's tokens as Fig labels them: a finished run's ledger says per stage whether they were counted. */
const stageTokens = (tokens: Tokens, stage: Stage, exact?: Record<Stage, { exact: boolean }>): Tokens =>
  exact === undefined ? tokens : { ...tokens, kind: exact[stage].exact ? 'exact' : 'estimate' };

function StageCells({ figures, prefix, tokens, exact }: { figures: Record<Stage, StageFigures>; prefix: string; tokens: Tokens; exact?: Record<Stage, { exact: boolean }> }) {
  return (
    <>
      {STAGES.map((st) => (
        <td key={st} className="num" title={`${fmtInt(figures[st].docs)} documents · ${fmtInt(figures[st].bytes)} UTF-8 bytes`} data-testid={`${prefix}-${st}`} data-docs={figures[st].docs} data-bytes={figures[st].bytes}>
          <Fig value={figures[st].tokens} exact tokens={stageTokens(tokens, st, exact)} compact testId={`${prefix}-${st}-tokens`} />
        </td>
      ))}
    </>
  );
}

function LossRows({ s, prefix }: { s: SourceTokenLedger; prefix: string }) {
  if (s.lostByRule.length === 0) return <tr className="source-row"><td colSpan={8} className="muted">no rule removes anything from {sourceName(s.source)}</td></tr>;
  return (
    <>
      {s.lostByRule.map((l) => (
        <tr key={l.rule} className="source-row" data-testid={`${prefix}-loss-${s.source}-${l.rule}`} data-docs={l.docs} data-tokens={l.tokens}>
          <td colSpan={3} title={l.label}>
            <span className="loss-label">#{l.rule} {l.label}</span>
          </td>
          <td className="num" title={`${fmtInt(l.docs)} documents`}>−{fmtInt(l.docs)} docs</td>
          <td className="num" title="tokens this rule removes (the first rule that drops a document)">−{fmtInt(l.tokens)}</td>
          <td colSpan={3} className="num">
            {fmtPct(l.tokens, s.raw.tokens)} of raw
          </td>
        </tr>
      ))}
    </>
  );
}

/** `id`: test-id prefix; `exact`: per-stage exactness (a finished run's ledger), else `result.tokens.kind` for all. */
export function LedgerTable({ result, id = 'ledger', exact }: { result: TokenLedgerResult; id?: string; exact?: Record<Stage, { exact: boolean }> }) {
  const open = useWorkbench((s) => s.ledger.lossSource);
  const store = useWorkbenchApi();
  const { tokens } = result;
  return (
    <table className="grid ledger-table" data-testid={`${id}-table`}>
      <thead>
        <tr>
          <th>source</th>
          {STAGES.map((st) => (
            <th key={st} className="num" title={tokens.note}>
              {st}
            </th>
          ))}
          <th className="num" title="sampled ÷ filtered tokens">rate</th>
          <th className="num" title="copies written of each kept document">repeat</th>
          <th className="num" title="seen tokens ÷ all seen tokens">share</th>
        </tr>
      </thead>
      <tbody>
        {result.sources.map((s) => (
          <Fragment key={s.source}>
            <tr className="clickable" onClick={() => store.getState().toggleLoss(s.source)} title="tokens each rule removes from this source" data-testid={`${id}-row-${s.source}`} aria-expanded={open === s.source}>
              <td>
                {open === s.source ? '▾' : '▸'} {sourceName(s.source)}
              </td>
              <StageCells figures={s} prefix={`${id}-${s.source}`} tokens={tokens} exact={exact} />
              <td className="num">{rate(s.sampleRate)}</td>
              <td className="num">{rate(s.repeat)}</td>
              <td className="num" data-testid={`${id}-${s.source}-share`} data-value={s.share}>
                {fmtPct(s.share, 1)}
              </td>
            </tr>
            {open === s.source && <LossRows s={s} prefix={id} />}
          </Fragment>
        ))}
        <tr className="total-row">
          <td>total ({tokenHeading(tokens.kind)})</td>
          <StageCells figures={result.total} prefix={`${id}-total`} tokens={tokens} exact={exact} />
          <td colSpan={3} className="muted">× {rate(result.epochs)} epoch{result.epochs === 1 ? '' : 's'}</td>
        </tr>
      </tbody>
    </table>
  );
}
