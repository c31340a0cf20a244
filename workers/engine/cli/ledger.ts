// `assay ledger`: per source docs, bytes and tokens raw → filtered → sampled → seen, predicted from the index (-c) or read from a run.
import type { TokenLedgerResult } from '../../../shared/contract/mixplan.js';
import { isRunFolder, runTokenLedger } from '../ledger/run-tokens.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';
import { formatLedger, formatRunNotes, ledgerCsv } from './ledger-format.js';
import { openForCli, readRecipe } from './preview.js';

/** `--epochs`: training passes over what the mix writes (a positive number; 1.5 epochs is a real plan). */
export function epochsOption(args: ParsedArgs): number | undefined {
  const v = stringOption(args, 'epochs');
  if (v === undefined) return undefined;
  const e = Number(v);
  if (!Number.isFinite(e) || e <= 0) throw new UsageError(`--epochs must be a positive number, got '${v}'`);
  return e;
}

function print(args: ParsedArgs, r: TokenLedgerResult, after = ''): void {
  if (args.options.get('json') === true && args.options.get('csv') === true) throw new UsageError('ledger takes --json or --csv, not both');
  if (args.options.get('json') === true) process.stdout.write(JSON.stringify(r) + '\n');
  else if (args.options.get('csv') === true) process.stdout.write(ledgerCsv(r));
  else process.stdout.write(formatLedger(r) + after);
}

export async function ledgerCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const epochs = epochsOption(args);
  if (args.options.get('config') !== undefined) {
    if (args.positionals.length > 0) throw new UsageError(`ledger takes a recipe (-c) or an output folder, not both (got '${args.positionals[0]}')`);
    const { path, text, root } = await readRecipe(args, 'ledger');
    const engine = openForCli(root);
    try {
      print(args, engine.tokenLedger(text, { recipePath: path, ...(epochs !== undefined && { epochs }) }));
    } finally {
      engine.close();
    }
    return 0;
  }
  const [dir, ...rest] = args.positionals;
  if (dir === undefined || rest.length > 0) throw new UsageError('ledger needs a recipe and an index (assay ledger -c recipe.yaml --index ROOT) or one mix output folder (assay ledger OUTPUT_DIR)');
  if (!(await isRunFolder(dir))) throw new UsageError(`${dir} is not a run's output folder (no .assay/manifest.json): name a mix output, or give -c recipe.yaml --index ROOT`);
  const tokens = stringOption(args, 'tokens');
  const workspace = stringOption(args, 'workspace');
  const r = await runTokenLedger(dir, { signal, ...(epochs !== undefined && { epochs }), ...(tokens !== undefined && { tokens }), ...(workspace !== undefined && { workspace }) });
  print(args, r, formatRunNotes(r));
  return 0;
}
