// `assay diff -c old.yaml -c new.yaml --index ROOT`: documents whose fate changes between two recipes, from the index.
import { readFile } from 'node:fs/promises';
import type { RecipeDiffResult } from '../../../shared/contract/preview.js';
import { AssayError } from '../errors.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';
import { openForCli } from './preview.js';

const n = (x: number): string => x.toLocaleString('en-US');

async function read(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
}

export function formatRecipeDiff(d: RecipeDiffResult, oldPath: string, newPath: string): string {
  // A document read by two streams (or by streams renamed between the recipes) has a fate in each.
  const streams = new Set(d.groups.map((g) => g.stream)).size;
  const what = streams > 1 ? `${n(d.changed.docs)} (stream, document) fates change over ${n(d.docs)} documents in ${streams} streams` : `${n(d.changed.docs)} of ${n(d.docs)} documents change fate`;
  const lines = [
    `${oldPath} → ${newPath}: ${what}` +
      `  (kept ${n(d.kept.old.docs)} → ${n(d.kept.new.docs)}, est. tokens kept ${n(d.kept.old.tokens)} → ${n(d.kept.new.tokens)})`,
  ];
  for (const [change, c] of Object.entries(d.byChange)) lines.push(`  ${change.padEnd(16)} ${n(c.docs).padStart(9)} docs  ${n(c.tokens).padStart(11)} est. tokens`);
  if (d.groups.length > 0) lines.push('', 'by rule:');
  const side = (s: RecipeDiffResult['groups'][number]['from']): string => (s.fate === 'dropped' ? `dropped by rule ${s.rule}${s.label ? ` (${s.label})` : ''}` : s.fate);
  for (const g of d.groups) {
    lines.push(`  ${n(g.docs).padStart(9)}  [${g.stream}] ${side(g.from)} → ${side(g.to)}`);
    if (g.sampleIds.length > 0) lines.push(`             e.g. ${g.sampleIds.slice(0, 5).join(', ')}${g.docs > 5 ? ', …' : ''}`);
  }
  const sources = Object.entries(d.bySource);
  if (sources.length > 0) {
    lines.push('', 'per source:');
    for (const [s, c] of sources) lines.push(`  ${(s || '(none)').padEnd(20)} ${Object.entries(c).map(([k, v]) => `${k} ${n(v)}`).join(', ')}`);
  }
  lines.push('', `computed over every indexed document in ${d.elapsedMs} ms`);
  return lines.join('\n') + '\n';
}

/** Exit 0 when no document changes fate, 1 when some do (like `diff`). */
export async function recipeDiffCommand(args: ParsedArgs, _signal?: AbortSignal): Promise<number> {
  const configs = args.options.get('config');
  const root = stringOption(args, 'index');
  if (!Array.isArray(configs) || configs.length !== 2 || root === undefined) {
    throw new UsageError('a recipe diff needs two recipes and an index: assay diff -c old.yaml -c new.yaml --index DATASET_ROOT');
  }
  const [oldPath, newPath] = configs as [string, string];
  const [oldText, newText] = await Promise.all([read(oldPath), read(newPath)]);
  const samples = Number(stringOption(args, 'samples') ?? 20);
  if (!Number.isInteger(samples) || samples < 0) throw new UsageError('--samples must be a whole number');
  const engine = openForCli(root);
  try {
    const d = engine.diff(oldText, newText, { oldPath, newPath, samples });
    process.stdout.write(args.options.get('json') === true ? JSON.stringify(d) + '\n' : formatRecipeDiff(d, oldPath, newPath));
    return d.changed.docs > 0 ? 1 : 0;
  } finally {
    engine.close();
  }
}
