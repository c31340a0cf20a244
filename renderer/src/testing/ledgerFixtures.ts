// Hand-made token ledgers and plans for the ledger panel's tests (books repeated twice, web sampled at 0.4).
import type { PlanResult, SourceTokenLedger, StageFigures, TokenLedgerResult } from '../../../shared/contract/index.js';

const fig = (docs: number, tokens: number): StageFigures => ({ docs, bytes: tokens * 4, tokens });

function source(name: string, raw: number, filtered: number, rate: number, repeat: number, share: number, epochs: number): SourceTokenLedger {
  const sampled = Math.round(filtered * rate);
  return {
    source: name,
    raw: fig(raw, raw * 100),
    filtered: fig(filtered, filtered * 100),
    sampled: fig(sampled, sampled * 100),
    seen: fig(sampled * repeat * epochs, sampled * repeat * epochs * 100),
    sampleRate: rate,
    repeat,
    share,
    lostByRule: [
      { rule: 0, label: 'word_count < 50', docs: raw - filtered, tokens: (raw - filtered) * 100 },
      ...(rate < 1 ? [{ rule: 1, label: 'sample', docs: filtered - sampled, tokens: (filtered - sampled) * 100 }] : []),
    ],
  };
}

export function ledgerResult(opts: { epochs?: number; kind?: 'exact' | 'estimate'; webRate?: number } = {}): TokenLedgerResult {
  const epochs = opts.epochs ?? 1;
  const sources = [source('books', 100, 80, 1, 2, 0.4, epochs), source('web', 1000, 600, opts.webRate ?? 0.4, 1, 0.6, epochs)];
  const sum = (k: 'raw' | 'filtered' | 'sampled' | 'seen'): StageFigures =>
    sources.reduce((a, s) => ({ docs: a.docs + s[k].docs, bytes: a.bytes + s[k].bytes, tokens: a.tokens + s[k].tokens }), fig(0, 0));
  const kind = opts.kind ?? 'estimate';
  return {
    sources,
    total: { raw: sum('raw'), filtered: sum('filtered'), sampled: sum('sampled'), seen: sum('seen') },
    epochs,
    tokens: kind === 'exact' ? { kind, tokenizer: 'gpt2', note: 'counted by gpt2' } : { kind, note: 'estimated tokens (⌈UTF-8 bytes / 4⌉)' },
    elapsedMs: 4,
  };
}

export function feasiblePlan(recipe: string, targets: Record<string, number>): PlanResult {
  const l = ledgerResult();
  return {
    feasible: true,
    recipe,
    sources: l.sources.map((s) => ({ source: s.source, fraction: s.sampleRate, repeat: s.repeat, seenTokens: s.seen.tokens, share: s.share, target: targets[s.source] ?? 0 })),
    ledger: l,
  };
}

export const infeasiblePlan: PlanResult = { feasible: false, source: 'books', reason: 'needs 9.1e8 tokens, has 4.2e8 filtered × max_repetitions 2 = 8.4e8' };
