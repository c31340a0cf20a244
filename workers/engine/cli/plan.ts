// `assay plan`: each source's sample fraction and repeat for a token budget and target shares, printed and optionally written into the recipe.
import { rename, writeFile } from 'node:fs/promises';
import type { PlanRequest, PlanResult } from '../../../shared/contract/mixplan.js';
import { AssayError } from '../errors.js';
import { intOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import { formatLedger } from './ledger-format.js';
import { openForCli, readRecipe } from './preview.js';

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const pct = (x: number): string => `${(100 * x).toFixed(2)}%`;

/** `web=0.6,books=0.2,code=0.2` → shares by source; each in [0, 1], together 1 (to 0.1 %, so thirds typed as 0.333 pass). */
export function parseTargets(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(',')) {
    const eq = part.lastIndexOf('=');
    const source = part.slice(0, eq).trim();
    const share = Number(part.slice(eq + 1));
    if (eq < 0 || part.slice(eq + 1).trim() === '' || !Number.isFinite(share) || share < 0 || share > 1) {
      throw new UsageError(`--target takes SOURCE=SHARE pairs with shares in [0, 1], separated by commas (got '${part}')`);
    }
    if (source in out) throw new UsageError(`--target names ${source || "''"} twice`);
    out[source] = share;
  }
  const sum = Object.values(out).reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-3) throw new UsageError(`--target shares add up to ${+sum.toFixed(6)}, not 1`);
  return out;
}

/** `2e9`, `2000000000` or `2_000_000_000`: seen tokens, a positive number. */
export function parseBudget(text: string): number {
  const b = Number(text.replace(/_/g, ''));
  if (!Number.isFinite(b) || b <= 0) throw new UsageError(`--budget must be a positive number of tokens (2e9), got '${text}'`);
  return b;
}

export function planRequest(args: ParsedArgs): PlanRequest {
  const budget = stringOption(args, 'budget');
  const target = stringOption(args, 'target');
  if (budget === undefined || target === undefined) throw new UsageError('plan needs --budget TOKENS and --target SOURCE=SHARE,…');
  const req: PlanRequest = { budget: parseBudget(budget), targets: parseTargets(target) };
  const maxRep = intOption(args, 'max-repetitions');
  if (maxRep !== undefined) req.maxRepetitions = maxRep;
  const frac = stringOption(args, 'max-source-fraction');
  if (frac !== undefined) {
    const f = Number(frac);
    if (!Number.isFinite(f) || f <= 0 || f > 1) throw new UsageError(`--max-source-fraction must be in (0, 1], got '${frac}'`);
    req.maxSourceFraction = f;
  }
  const seed = intOption(args, 'seed', 0);
  if (seed !== undefined) req.seed = seed;
  return req;
}

/** The plan per source (fraction, repeat, seen tokens, share against target), then the ledger it yields. */
export function formatPlan(r: Extract<PlanResult, { feasible: true }>, budget: number): string {
  const approx = r.ledger.tokens.kind === 'exact' ? '' : '≈';
  const lines = [`plan for ${n(budget)} seen tokens`, '', `${'source'.padEnd(16)}${'fraction'.padStart(10)}${'repeat'.padStart(8)}${'seen tokens'.padStart(16)}${'share'.padStart(9)}${'target'.padStart(9)}${'off by'.padStart(9)}`];
  for (const s of r.sources) {
    const off = s.share - s.target;
    lines.push(
      `${(s.source || '(none)').padEnd(16)}${s.fraction.toFixed(4).padStart(10)}${String(s.repeat).padStart(8)}${`${approx}${n(s.seenTokens)}`.padStart(16)}${pct(s.share).padStart(9)}${pct(s.target).padStart(9)}${`${off >= 0 ? '+' : ''}${(100 * off).toFixed(2)}`.padStart(9)}`,
    );
  }
  const seen = r.sources.reduce((a, s) => a + s.seenTokens, 0);
  lines.push(`${'total'.padEnd(16)}${''.padStart(18)}${`${approx}${n(seen)}`.padStart(16)}   (${pct(seen / budget)} of the budget)`, '', 'ledger under the plan:');
  return `${lines.join('\n')}\n${formatLedger(r.ledger)}`;
}

/** The binding source and why; the engine's reason usually starts with the source already. */
export const refusal = (r: Extract<PlanResult, { feasible: false }>): string => (r.reason.startsWith(`${r.source}:`) ? r.reason : `${r.source || '(none)'}: ${r.reason}`);

/** Replaces the file in one rename, so an interrupted write never leaves half a recipe. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const tmp = `${path}.assay-plan-${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

export async function planCommand(args: ParsedArgs): Promise<number> {
  const req = planRequest(args);
  const { path, text, root } = await readRecipe(args, 'plan');
  const engine = openForCli(root);
  let r: PlanResult;
  try {
    r = engine.plan(text, req, { recipePath: path });
  } finally {
    engine.close();
  }
  if (args.options.get('json') === true) process.stdout.write(JSON.stringify(r) + '\n');
  if (!r.feasible) {
    process.stderr.write(`assay: no plan meets the targets: ${refusal(r)}\n`);
    return 1;
  }
  if (args.options.get('json') !== true) process.stdout.write(formatPlan(r, req.budget));
  if (args.options.get('write') === true) {
    await writeAtomically(path, r.recipe).catch((e: NodeJS.ErrnoException) => {
      throw new AssayError('IO', `cannot write the planned recipe (${e.code ?? e.message})`, { file: path });
    });
    if (args.options.get('json') !== true) process.stdout.write(`\nwrote the plan's assay.sample / assay.repeat into ${path}\n`);
  } else if (args.options.get('json') !== true) process.stdout.write(`\n${path} is unchanged: --write writes the plan's assay.sample / assay.repeat into it\n`);
  return 0;
}
