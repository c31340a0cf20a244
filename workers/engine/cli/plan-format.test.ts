// The plan and ledger printouts and the plan's argument parsing, on hand-made engine results.
import { describe, expect, it } from 'vitest';
import type { PlanResult, SourceTokenLedger, TokenLedgerResult } from '../../../shared/contract/mixplan.js';
import { parseArgs } from './args.js';
import { formatLedger, ledgerCsv } from './ledger-format.js';
import { formatPlan, parseBudget, parseTargets, planRequest } from './plan.js';

const fig = (docs: number, tokens: number) => ({ docs, bytes: tokens * 4, tokens });
const src = (source: string, raw: number, filtered: number, rate: number, repeat: number, share: number): SourceTokenLedger => ({
  source,
  raw: fig(raw, raw * 100),
  filtered: fig(filtered, filtered * 100),
  sampled: fig(Math.round(filtered * rate), Math.round(filtered * rate) * 100),
  seen: fig(Math.round(filtered * rate) * repeat, Math.round(filtered * rate) * repeat * 100),
  sampleRate: rate,
  repeat,
  share,
  lostByRule: [],
});
const ledger = (kind: 'exact' | 'estimate'): TokenLedgerResult => {
  const sources = [src('books', 100, 80, 1, 2, 0.4), src('web', 1000, 600, 0.4, 1, 0.6)];
  const sum = (k: 'raw' | 'filtered' | 'sampled' | 'seen') => sources.reduce((a, s) => ({ docs: a.docs + s[k].docs, bytes: a.bytes + s[k].bytes, tokens: a.tokens + s[k].tokens }), fig(0, 0));
  return { sources, total: { raw: sum('raw'), filtered: sum('filtered'), sampled: sum('sampled'), seen: sum('seen') }, epochs: 1, tokens: kind === 'exact' ? { kind, tokenizer: 'gpt2', note: 'every document counted' } : { kind, note: 'no tokenizer count in the index' }, elapsedMs: 3 };
};

describe('assay plan arguments', () => {
  it('parses targets and budgets, and refuses what cannot be a plan', () => {
    expect(parseTargets('web=0.6,books=0.2,code=0.2')).toEqual({ web: 0.6, books: 0.2, code: 0.2 });
    expect(parseTargets('a=0.333,b=0.333,c=0.334')).toEqual({ a: 0.333, b: 0.333, c: 0.334 });
    expect(parseTargets('=0.5,x=y=0.5')).toEqual({ '': 0.5, 'x=y': 0.5 });
    expect(() => parseTargets('web=0.6,books=0.2')).toThrow(/add up to 0.8, not 1/);
    expect(() => parseTargets('web')).toThrow(/SOURCE=SHARE pairs/);
    expect(() => parseTargets('web=1.5')).toThrow(/shares in \[0, 1\]/);
    expect(() => parseTargets('web=0.5,web=0.5')).toThrow(/names web twice/);
    expect(parseBudget('2e9')).toBe(2e9);
    expect(parseBudget('2_000_000')).toBe(2e6);
    expect(() => parseBudget('-1')).toThrow(/positive number of tokens/);
    const args = parseArgs(['plan', '--budget', '1e6', '--target', 'a=1', '--max-repetitions', '3', '--max-source-fraction', '0.5', '--seed', '0'], {
      budget: { value: true, description: '' }, target: { value: true, description: '' }, 'max-repetitions': { value: true, description: '' }, 'max-source-fraction': { value: true, description: '' }, seed: { value: true, description: '' },
    });
    expect(planRequest(args)).toEqual({ budget: 1e6, targets: { a: 1 }, maxRepetitions: 3, maxSourceFraction: 0.5, seed: 0 });
  });
});

describe('ledger and plan printouts', () => {
  it('marks estimated tokens with ≈ and says so; exact ones name the tokenizer', () => {
    const est = formatLedger(ledger('estimate'));
    expect(est.split('\n')[0]).toBe('tokens: estimates (≈) — no tokenizer count in the index');
    expect(est).toMatch(/^web\s+raw\s+1,000\s+400,000\s+≈100,000\s*$/m);
    expect(est).toMatch(/^\s+sampled\s+240\s+96,000\s+≈24,000\s+24\.0%\s+rate 0\.4$/m);
    expect(est).toMatch(/^\s+seen\s+160\s+64,000\s+≈16,000\s+160\.0%\s+× repeat 2 × epochs 1$/m);
    expect(est).toMatch(/^web\s+0\.4\s+1\s+≈24,000\s+60\.0%$/m);
    const exact = formatLedger(ledger('exact'));
    expect(exact.split('\n')[0]).toBe('tokens: exact, counted by gpt2 (every document counted)');
    expect(exact).not.toContain('≈');
    expect(exact).toMatch(/^total\s+raw\s+1,100\s+440,000\s+110,000\s*$/m);
    const csv = ledgerCsv(ledger('exact')).trim().split('\n');
    expect(csv).toEqual([
      'source,stage,docs,bytes,tokens,tokens_exact,sample_rate,repeat,epochs,share',
      'books,raw,100,40000,10000,true,1,2,1,0.4', 'books,filtered,80,32000,8000,true,1,2,1,0.4', 'books,sampled,80,32000,8000,true,1,2,1,0.4', 'books,seen,160,64000,16000,true,1,2,1,0.4',
      'web,raw,1000,400000,100000,true,0.4,1,1,0.6', 'web,filtered,600,240000,60000,true,0.4,1,1,0.6', 'web,sampled,240,96000,24000,true,0.4,1,1,0.6', 'web,seen,240,96000,24000,true,0.4,1,1,0.6',
    ]);
  });

  it('prints each source against its target, the budget used, and the ledger under the plan', () => {
    const plan: Extract<PlanResult, { feasible: true }> = {
      feasible: true,
      recipe: 'streams: []\n',
      sources: [
        { source: 'books', fraction: 1, repeat: 2, seenTokens: 16000, share: 0.4, target: 0.4 },
        { source: 'web', fraction: 0.4, repeat: 1, seenTokens: 24000, share: 0.6, target: 0.595 },
      ],
      ledger: ledger('exact'),
    };
    const out = formatPlan(plan, 50000);
    expect(out).toMatch(/^plan for 50,000 seen tokens$/m);
    expect(out).toMatch(/^books\s+1\.0000\s+2\s+16,000\s+40\.00%\s+40\.00%\s+\+0\.00$/m);
    expect(out).toMatch(/^web\s+0\.4000\s+1\s+24,000\s+60\.00%\s+59\.50%\s+\+0\.50$/m);
    expect(out).toMatch(/^total\s+40,000\s+\(80\.00% of the budget\)$/m);
    expect(out).toContain('ledger under the plan:\ntokens: exact, counted by gpt2');
  });
});
