// `assay diff -c old.yaml -c new.yaml --index ROOT`: documents whose fate changes between two recipes (being built).
import type { ParsedArgs } from './args.js';
import { UsageError } from './args.js';

export async function recipeDiffCommand(_args: ParsedArgs, _signal?: AbortSignal): Promise<number> {
  throw new UsageError('assay diff -c OLD -c NEW --index ROOT is not built yet');
}
