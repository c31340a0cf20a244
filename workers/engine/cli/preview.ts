// `assay preview -c recipe.yaml --index ROOT`: what the recipe keeps and drops, per rule, from the index.
import { readFile } from 'node:fs/promises';
import type { CountBySource, PreviewResult } from '../../../shared/contract/preview.js';
import { AssayError } from '../errors.js';
import { PreviewEngine } from '../index/index.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';

export async function readRecipe(args: ParsedArgs, verb: string): Promise<{ path: string; text: string; root: string }> {
  const path = stringOption(args, 'config');
  const root = stringOption(args, 'index');
  if (path === undefined || root === undefined) throw new UsageError(`${verb} needs a recipe and an index: assay ${verb} -c recipe.yaml --index DATASET_ROOT`);
  try {
    return { path, text: await readFile(path, 'utf8'), root };
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
}

const n = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number, of: number): string => (of > 0 ? `${((100 * x) / of).toFixed(1)}%` : '-');

/** Opens the index for a CLI verb: relative paths in the recipe resolve against the working directory, as `assay mix` resolves them. */
export const openForCli = (root: string): PreviewEngine => PreviewEngine.open(root, { baseDir: process.cwd() });

export function formatPreview(r: PreviewResult): string {
  const t = r.total;
  const tok = r.tokens.kind === 'exact' ? 'tokens' : 'est. tokens';
  const lines = [
    `documents ${n(t.docs)}  kept ${n(t.kept.docs)} (${pct(t.kept.docs, t.docs)})  dropped ${n(t.dropped.docs)} (${pct(t.dropped.docs, t.docs)})` +
      `  ${tok} kept ${n(t.kept.tokens)} of ${n(t.tokens)} (${pct(t.kept.tokens, t.tokens)})${r.outsideStreams ? `  outside every stream ${n(r.outsideStreams)}` : ''}`,
    '',
    `${'rule'.padEnd(5)}${'kind'.padEnd(18)}${'path'.padEnd(10)}${'alone'.padStart(11)}${'exclusive'.padStart(11)}${'in order'.padStart(11)}${tok.padStart(13)}  rule`,
  ];
  for (const rule of r.rules) {
    const c = (x: CountBySource): string => n(x.docs).padStart(11);
    // The rule's label (its YAML comment, else key + comparator + threshold): the JSON output has the expression.
    const name = rule.label ?? rule.expression;
    const what = rule.replacement ? `${name}: ${n(rule.replacement.chars)} chars in ${n(rule.replacement.docs)} docs replaced` : name;
    lines.push(
      `${String(rule.index).padEnd(5)}${rule.kind.padEnd(18)}${rule.path.padEnd(10)}${c(rule.alone)}${c(rule.exclusive)}${c(rule.sequential)}${n(rule.sequential.tokens).padStart(13)}  ${what.length > 100 ? `${what.slice(0, 97)}…` : what}`,
    );
    if (rule.missingKeys.length) lines.push(`${' '.repeat(5)}no document has ${rule.missingKeys.map((k) => `\`${k}\``).join(', ')}`);
  }
  const sources = Object.entries(t.bySource);
  if (sources.length > 1) {
    lines.push('', 'per source (kept / documents):');
    for (const [s, c] of sources) lines.push(`  ${(s || '(none)').padEnd(20)} ${n(t.kept.bySource[s]?.docs ?? 0)} / ${n(c.docs)}`);
  }
  // The note says which tokenizer counted, or why figures are (partly) estimates.
  lines.push('', `computed over every indexed document in ${r.elapsedMs} ms; ${r.tokens.note}`);
  return lines.join('\n') + '\n';
}

export async function previewCommand(args: ParsedArgs): Promise<number> {
  const idsOpt = args.options.get('ids');
  if (typeof idsOpt === 'string') throw new UsageError(`preview --ids takes no value (got '${idsOpt}'); remove --ids takes a file`);
  const { path, text, root } = await readRecipe(args, 'preview');
  const engine = openForCli(root);
  try {
    const ids = args.options.get('ids') === true;
    const r = engine.preview(text, { ids, recipePath: path });
    if (args.options.get('json') === true) {
      const { keptIds, ...rest } = r;
      process.stdout.write(JSON.stringify({ ...rest, ...(ids ? { kept_ids: keptIds ?? [] } : {}) }) + '\n');
    } else {
      process.stdout.write(formatPreview(r));
      if (ids) process.stdout.write((r.keptIds ?? []).join('\n') + ((r.keptIds ?? []).length ? '\n' : ''));
    }
    return 0;
  } finally {
    engine.close();
  }
}
